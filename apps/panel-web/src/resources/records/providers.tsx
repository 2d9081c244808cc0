import { flatCsvExporter } from '../../api/csv';
import LockResetIcon from '@mui/icons-material/LockReset';
import VisibilityIcon from '@mui/icons-material/Visibility';
import VpnKeyIcon from '@mui/icons-material/VpnKey';
import { Box, MenuItem, TextField as MuiTextField, Typography } from '@mui/material';
import { useState } from 'react';
import {
  BooleanField,
  BooleanInput,
  Create,
  Datagrid,
  Edit,
  Labeled,
  List,
  NullableBooleanInput,
  NumberField,
  Pagination,
  ReferenceInput,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  TopToolbar,
  required,
  useNotify,
  useRecordContext,
  useRedirect,
  useTranslate,
  type DataProvider,
} from 'react-admin';
import type {
  PanelProvider,
  PanelProviderRevealResponse,
  PanelProviderRotateResponse,
  PanelProviderSaveResponse,
} from '@transfergate/contracts/panel';
import { panelFetch } from '../../api/http';
import { ConfirmAction } from './shared/confirm-action';
import { DateTimeField, ListTextField } from './shared/fields';
import { ipListFormat, toIpList } from './shared/ip-list';
import { pick, recordProvider } from './shared/record-provider';
import { rememberWrite } from './shared/recent-writes';
import { SecretDialog, type ShownCredentials } from './shared/secret-dialog';
import { RecordFormToolbar, RecordListActions } from './shared/toolbars';
import { useCan } from './shared/use-can';
import { useGuardedAction } from './shared/use-guarded-action';

export type Provider = PanelProvider;

const SAVE_FIELDS: (keyof Provider)[] = ['id', 'name', 'merchantId', 'infrastructureId', 'active', 'sandbox'];

function saveBody(data: Partial<Provider>): Record<string, unknown> {
  const apiAllowedIps = toIpList(data.apiAllowedIps);
  return { ...pick(data, SAVE_FIELDS), ...(apiAllowedIps ? { apiAllowedIps } : {}) };
}

export const providersDataProvider: Partial<DataProvider> = {
  ...recordProvider<Provider, PanelProvider>({
    listPath: '/panel/providers',
    onePath: (id) => `/panel/providers/${encodeURIComponent(id)}`,
    serverFilters: (filter) => ({
      includeDeleted: filter.includeDeleted ? 'true' : undefined,
      merchantId: typeof filter.merchantId === 'string' ? filter.merchantId : undefined,
    }),
    savePath: '/panel/providers/save',
    toSaveBody: saveBody,
    deletePath: '/panel/providers/delete',
    toDeleteBody: (record) => ({ id: record.id }),
  }),
  createProvider: async (_resource: string, params: { data: Partial<Provider> }) => createProvider(params.data),
  revealProviderSecret: async (_resource: string, params: { id: string }) => revealProviderSecret(params.id),
  rotateProviderSecret: async (_resource: string, params: { id: string; overlapSeconds?: number }) =>
    rotateProviderSecret(params.id, params.overlapSeconds),
};

// The screens call these directly (the app's dispatcher routes only react-admin's standard methods).

/** Creates a provider; the answer carries its generated key and secret (shown once, never cached). */
export async function createProvider(data: Partial<Provider>) {
  const answer = await panelFetch<PanelProviderSaveResponse>('/panel/providers/save', { body: saveBody(data) });
  rememberWrite('/panel/providers', answer.record);
  return answer;
}

/** The API records the reveal (who, from where) as an event before it answers. */
export function revealProviderSecret(id: string) {
  return panelFetch<PanelProviderRevealResponse>('/panel/providers/reveal-secret', { body: { id } });
}

/**
 * A new secret; the old one stays valid for `overlapSeconds` (absent: the configured default window,
 * 0: a hard cut).
 */
export async function rotateProviderSecret(id: string, overlapSeconds?: number) {
  const answer = await panelFetch<PanelProviderRotateResponse>('/panel/providers/rotate-secret', {
    body: { id, ...(overlapSeconds !== undefined ? { overlapSeconds } : {}) },
  });
  rememberWrite('/panel/providers', answer.record);
  return answer;
}

/** Ends the rotation's overlap window now: only the new secret is valid from the answer on. */
export async function endProviderSecretOverlap(id: string) {
  const answer = await panelFetch<{ record: PanelProvider }>('/panel/providers/end-secret-overlap', { body: { id } });
  rememberWrite('/panel/providers', answer.record);
  return answer;
}

/** The overlap windows the rotate dialog offers; `default` sends none (the configured default, 24 h). */
const OVERLAP_CHOICES = [
  { value: 'default', seconds: undefined, label: 'records.providers.overlap_default' },
  { value: '3600', seconds: 3_600, label: 'records.providers.overlap_hour' },
  { value: '604800', seconds: 604_800, label: 'records.providers.overlap_week' },
  { value: '0', seconds: 0, label: 'records.providers.overlap_none' },
] as const;

const filters = [
  <TextInput key="q" source="q" label="records.common.search" alwaysOn resettable />,
  <ReferenceInput key="merchantId" source="merchantId" reference="merchants" alwaysOn>
    <SelectInput optionText="name" label="resources.providers.fields.merchantId" />
  </ReferenceInput>,
  <NullableBooleanInput key="active" source="active" label="resources.providers.fields.active" />,
  <BooleanInput key="includeDeleted" source="includeDeleted" label="records.common.include_deleted" />,
];

export function ProviderList() {
  return (
    <List
      actions={<RecordListActions manage="providers.manage" />}
      filters={filters}
      sort={{ field: 'number', order: 'ASC' }}
      perPage={25}
      exporter={flatCsvExporter('providers')}
      pagination={<Pagination rowsPerPageOptions={[10, 25, 50, 100]} />}
    >
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <NumberField source="number" />
        <TextField source="name" />
        <TextField source="merchantName" />
        <TextField source="infrastructureSlug" />
        <TextField source="apiKey" sx={{ fontFamily: 'monospace' }} />
        <ListTextField source="apiAllowedIps" emptyText="records.providers.any_ip" />
        <BooleanField source="active" />
        <BooleanField source="sandbox" />
        <DateTimeField source="updatedAt" />
      </Datagrid>
    </List>
  );
}

function ProviderFields({ editing }: { editing: boolean }) {
  return (
    <>
      <TextInput
        source="name"
        validate={required()}
        disabled={editing}
        helperText={editing ? 'records.common.key_fixed' : false}
      />
      <ReferenceInput source="merchantId" reference="merchants" perPage={500}>
        <SelectInput optionText="name" validate={required()} label="resources.providers.fields.merchantId" />
      </ReferenceInput>
      <ReferenceInput source="infrastructureId" reference="infrastructures" perPage={500}>
        <SelectInput optionText="slug" validate={required()} label="resources.providers.fields.infrastructureId" />
      </ReferenceInput>
      <TextInput
        source="apiAllowedIps"
        multiline
        minRows={2}
        format={ipListFormat}
        helperText="records.common.api_ips_help"
      />
      <BooleanInput source="active" />
      <BooleanInput source="sandbox" helperText="records.providers.sandbox_help" />
    </>
  );
}

/** Reveal (audited by the API) and rotate, each behind a confirmation, then the secret dialog. */
function SecretActions() {
  const record = useRecordContext<Provider>();
  const translate = useTranslate();
  const canReveal = useCan('providers.reveal_secret');
  const canRotate = useCan('providers.manage');
  const [shown, setShown] = useState<ShownCredentials | null>(null);
  const [overlap, setOverlap] = useState<(typeof OVERLAP_CHOICES)[number]['value']>('default');
  if (!record || record.deleted) return null;
  const overlapSeconds = OVERLAP_CHOICES.find((choice) => choice.value === overlap)?.seconds;
  const show = (answer: unknown) => {
    const credentials = answer as PanelProviderRevealResponse | PanelProviderRotateResponse;
    setShown({ name: record.name, apiKey: credentials.apiKey, apiSecret: credentials.apiSecret });
  };
  return (
    <TopToolbar>
      {canReveal ? (
        <ConfirmAction
          label="records.providers.reveal"
          icon={<VisibilityIcon />}
          title="records.providers.reveal_title"
          content={translate('records.providers.reveal_content', { name: record.name })}
          action={() => revealProviderSecret(record.id)}
          onDone={show}
        />
      ) : null}
      {canRotate ? (
        <ConfirmAction
          label="records.providers.rotate"
          icon={<LockResetIcon />}
          color="error"
          title="records.providers.rotate_title"
          content={
            <>
              <Typography variant="body2" sx={{ mb: 2 }}>
                {translate('records.providers.rotate_content', { name: record.name })}
              </Typography>
              <MuiTextField
                select
                fullWidth
                size="small"
                label={translate('records.providers.overlap_label')}
                value={overlap}
                onChange={(event) => setOverlap(event.target.value as typeof overlap)}
                helperText={translate('records.providers.overlap_help')}
              >
                {OVERLAP_CHOICES.map((choice) => (
                  <MenuItem key={choice.value} value={choice.value}>
                    {translate(choice.label)}
                  </MenuItem>
                ))}
              </MuiTextField>
            </>
          }
          action={() => rotateProviderSecret(record.id, overlapSeconds)}
          onDone={show}
        />
      ) : null}
      {canRotate && record.previousSecretValidUntil ? (
        <ConfirmAction
          label="records.providers.end_overlap"
          icon={<LockResetIcon />}
          color="warning"
          title="records.providers.end_overlap_title"
          content={translate('records.providers.end_overlap_content', { name: record.name })}
          action={() => endProviderSecretOverlap(record.id)}
          successMessage="records.providers.overlap_ended"
        />
      ) : null}
      <SecretDialog shown={shown} onClose={() => setShown(null)} />
    </TopToolbar>
  );
}

function ProviderHeader() {
  const record = useRecordContext<Provider>();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Box sx={{ display: 'flex', gap: 4, mb: 2, flexWrap: 'wrap' }}>
      <Labeled label="resources.providers.fields.number">
        <NumberField source="number" />
      </Labeled>
      <Labeled label="resources.providers.fields.apiKey">
        <TextField source="apiKey" sx={{ fontFamily: 'monospace' }} />
      </Labeled>
      <Labeled label="resources.providers.fields.updatedAt">
        <DateTimeField source="updatedAt" />
      </Labeled>
      {record.previousSecretValidUntil ? (
        <Labeled label="resources.providers.fields.previousSecretValidUntil">
          <DateTimeField source="previousSecretValidUntil" />
        </Labeled>
      ) : null}
      {record.deleted ? (
        <Typography color="error" sx={{ alignSelf: 'center' }}>
          {translate('records.common.deleted')}
        </Typography>
      ) : null}
    </Box>
  );
}

export function ProviderEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect={false} actions={<SecretActionsInContext />}>
      <SimpleForm
        toolbar={
          <RecordFormToolbar manage="providers.manage" deletable deleteContent="records.providers.delete_content" />
        }
      >
        <ProviderHeader />
        <ProviderFields editing />
      </SimpleForm>
    </Edit>
  );
}

/** Edit's actions render inside the record context. */
function SecretActionsInContext() {
  return <SecretActions />;
}

/**
 * Create calls the API directly (not react-admin's create): the answer carries the new secret,
 * which must be shown once and not land in the query cache.
 */
export function ProviderCreate() {
  const notify = useNotify();
  const redirect = useRedirect();
  const [created, setCreated] = useState<{ id: string; shown: ShownCredentials } | null>(null);
  const [submit] = useGuardedAction(async (values: Record<string, unknown>) => {
    try {
      const answer = await createProvider(values as Partial<Provider>);
      if (!answer.created) {
        // The name was taken (a deleted provider's too): the API changed that provider and keeps
        // its key and secret, so there is no secret to show.
        notify('records.providers.existing_saved', { type: 'info', messageArgs: { name: answer.record.name } });
        redirect('edit', 'providers', answer.record.id);
        return;
      }
      setCreated({
        id: answer.record.id,
        shown: { name: answer.record.name, apiKey: answer.apiKey, apiSecret: answer.apiSecret },
      });
      notify('records.common.created', { type: 'success' });
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
  });
  return (
    <Create>
      <SimpleForm
        onSubmit={(values: Record<string, unknown>) => submit(values)}
        toolbar={<RecordFormToolbar manage="providers.manage" />}
        defaultValues={{ active: true, apiAllowedIps: [] }}
      >
        <ProviderFields editing={false} />
      </SimpleForm>
      <SecretDialog
        shown={created?.shown ?? null}
        onClose={() => {
          const id = created?.id;
          setCreated(null);
          if (id) redirect('edit', 'providers', id);
        }}
      />
    </Create>
  );
}

export const providersResource = {
  name: 'providers',
  list: ProviderList,
  edit: ProviderEdit,
  create: ProviderCreate,
  icon: VpnKeyIcon,
  options: { label: 'resources.providers.name' },
};
