import SettingsIcon from '@mui/icons-material/Settings';
import { Alert, Box, Typography } from '@mui/material';
import {
  BooleanInput,
  Edit,
  Labeled,
  NumberInput,
  SimpleForm,
  TextInput,
  maxValue,
  minValue,
  required,
  useRecordContext,
  useTranslate,
  type DataProvider,
} from 'react-admin';
import type { PanelApiSettings, PanelApiSettingsUpdateResponse } from '@transfergate/contracts/panel';
import { panelFetch } from '../../api/http';
import { useRecordName } from '../transactions/record-names';
import { DateTimeField } from './shared/fields';

const OPERATOR_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Who changed the settings last: an operator by name, a source (`bootstrap`) in words, never an id. */
function UpdatedBy() {
  const record = useRecordContext<{ updatedBy?: string | null }>();
  const translate = useTranslate();
  const operatorName = useRecordName('operator');
  const by = record?.updatedBy;
  const shown = !by ? '—' : OPERATOR_ID.test(by) ? (operatorName(by) ?? by) : translate(`tg.sources.${by}`, { _: by });
  return (
    <Typography variant="body2" data-testid="settings-updated-by">
      {shown}
    </Typography>
  );
}
import { RecordFormToolbar } from './shared/toolbars';

/** One record (id "api"): /panel/settings/api is a singleton. */
export const API_SETTINGS_ID = 'api';

/** The singleton as a react-admin record; the form edits the retry schedule as text. */
export type ApiSettings = Omit<PanelApiSettings, 'callbackRetryScheduleSeconds'> & {
  id: string;
  callbackRetryScheduleSeconds: number[] | string;
};

/** The retry schedule edits as "0, 5, 300": seconds before each attempt. */
const scheduleFormat = (value: unknown) =>
  Array.isArray(value) ? value.join(', ') : typeof value === 'string' ? value : '';

function scheduleValue(value: unknown): number[] | undefined {
  if (Array.isArray(value)) return value.map(Number);
  if (typeof value !== 'string') return undefined;
  return value
    .split(/[\s,;]+/)
    .filter((part) => part.length > 0)
    .map(Number);
}

function validSchedule(value: unknown) {
  const seconds = scheduleValue(value);
  const ok =
    seconds !== undefined &&
    seconds.length >= 1 &&
    seconds.length <= 20 &&
    // Whole seconds are what an operator may save; the environment's schedule (shown until changed, never
    // sent back unchanged) may have fractions, which must not block saving another setting.
    seconds.every((s) => Number.isFinite(s) && s >= 0 && s <= 86_400);
  return ok ? undefined : 'records.settings.schedule_invalid';
}

const read = async () => ({ ...(await panelFetch<PanelApiSettings>('/panel/settings/api')), id: API_SETTINGS_ID });

export const apiSettingsDataProvider: Partial<DataProvider> = {
  getOne: async () => ({ data: await read() }) as never,
  getList: async () => ({ data: [await read()], total: 1 }) as never,
  update: async (_resource, params) => {
    const data = params.data as Partial<ApiSettings>;
    const before = (params.previousData ?? {}) as Partial<ApiSettings>;
    // Only what the operator changed: a setting left alone keeps following the environment.
    const changed = <T,>(next: T, previous: unknown) =>
      JSON.stringify(next) === JSON.stringify(previous) ? undefined : next;
    const body = {
      testAuthEnabled: changed(data.testAuthEnabled, before.testAuthEnabled),
      payment_page_url: changed(data.payment_page_url || undefined, before.payment_page_url || undefined),
      depositTtlMinutes: changed(data.depositTtlMinutes, before.depositTtlMinutes),
      callbackRetryScheduleSeconds: changed(
        scheduleValue(data.callbackRetryScheduleSeconds),
        scheduleValue(before.callbackRetryScheduleSeconds),
      ),
      rateLimitPerMinute: changed(data.rateLimitPerMinute, before.rateLimitPerMinute),
    };
    const answer = await panelFetch<PanelApiSettingsUpdateResponse>('/panel/settings/api', { body });
    return { data: { ...answer, id: API_SETTINGS_ID } } as never;
  },
};

function Notes() {
  const record = useRecordContext<ApiSettings>();
  if (!record?.notes?.length) return null;
  return (
    <Box sx={{ mb: 2 }}>
      {record.notes.map((note) => (
        <Alert key={note} severity="info" sx={{ mb: 1 }}>
          {note}
        </Alert>
      ))}
    </Box>
  );
}

/** The settings screen is the resource's list page: there is exactly one record. */
export function ApiSettingsPage() {
  return (
    <Edit
      resource="api-settings"
      id={API_SETTINGS_ID}
      title="resources.api-settings.name"
      mutationMode="pessimistic"
      redirect={false}
      actions={false}
    >
      <SimpleForm toolbar={<RecordFormToolbar manage="settings.manage" />}>
        <Notes />
        <Box sx={{ display: 'flex', gap: 4, mb: 1 }}>
          <Labeled label="resources.api-settings.fields.updatedAt">
            <DateTimeField source="updatedAt" />
          </Labeled>
          <Labeled label="resources.api-settings.fields.updatedBy">
            <UpdatedBy />
          </Labeled>
        </Box>
        <BooleanInput source="testAuthEnabled" helperText="records.settings.test_auth_help" />
        <TextInput source="payment_page_url" type="url" fullWidth helperText="records.settings.payment_page_help" />
        <NumberInput source="depositTtlMinutes" validate={[required(), minValue(1), maxValue(1440)]} step={1} />
        <TextInput
          source="callbackRetryScheduleSeconds"
          format={scheduleFormat}
          validate={validSchedule}
          fullWidth
          helperText="records.settings.schedule_help"
        />
        <NumberInput
          source="rateLimitPerMinute"
          validate={[required(), minValue(0), maxValue(1_000_000)]}
          step={1}
          helperText="records.settings.rate_limit_help"
        />
      </SimpleForm>
    </Edit>
  );
}

export const apiSettingsResource = {
  name: 'api-settings',
  list: ApiSettingsPage,
  icon: SettingsIcon,
  options: { label: 'resources.api-settings.name' },
};
