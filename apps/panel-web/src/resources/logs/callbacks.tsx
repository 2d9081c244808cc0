import ReplayIcon from '@mui/icons-material/Replay';
import SendIcon from '@mui/icons-material/Send';
import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import {
  Datagrid,
  FunctionField,
  Labeled,
  List,
  NumberField,
  Pagination,
  SelectField,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
  TextInput,
  TopToolbar,
  useGetOne,
  useRecordContext,
  useTranslate,
  type DataProvider,
} from 'react-admin';
import type {
  PanelCallbackDelivery,
  PanelCallbackDetail,
  PanelCallbackPage,
  PanelOperator,
} from '@transfergate/contracts/panel';
import { panelFetch } from '../../api/http';
import { formatDateTime } from '../../format/time';
import { ConfirmAction } from '../records/shared/confirm-action';
import { DateTimeField } from '../records/shared/fields';
import { useCan } from '../records/shared/use-can';
import { cursorLister, filterText } from './cursor-pages';
import { JsonBlock, StateChip, StateValueChip } from './log-fields';

const listCallbacks = cursorLister<PanelCallbackDelivery>((filter, limit, cursor) =>
  panelFetch<PanelCallbackPage>('/panel/callbacks', {
    query: {
      state: filterText(filter.state),
      type: filterText(filter.type),
      transactionId: filterText(filter.transactionId),
      limit,
      cursor,
    },
  }),
);

export const callbacksDataProvider: Partial<DataProvider> = {
  getList: async (_resource, params) => (await listCallbacks(params)) as never,
  getOne: async (_resource, params) =>
    ({
      data: await panelFetch<PanelCallbackDetail>(`/panel/callbacks/${encodeURIComponent(String(params.id))}`),
    }) as never,
  resendCallback: async (_resource: string, params: { id: string }) => resendCallback(params.id),
};

/** Called by the screens directly (the app's dispatcher routes only react-admin's standard methods). */
export function resendCallback(id: string) {
  return panelFetch<PanelCallbackDetail>('/panel/callbacks/resend', { body: { id } });
}

const STATES = ['pending', 'delivered', 'failed'].map((id) => ({ id, name: `logs.states.${id}` }));
const TYPES = ['deposit', 'withdrawal'].map((id) => ({ id, name: `logs.types.${id}` }));
const OUTCOMES = ['approved', 'rejected'].map((id) => ({ id, name: `logs.outcomes.${id}` }));

const filters = [
  <SelectInput key="state" source="state" choices={STATES} label="resources.callbacks.fields.state" alwaysOn />,
  <SelectInput key="type" source="type" choices={TYPES} label="resources.callbacks.fields.type" alwaysOn />,
  <TextInput
    key="transactionId"
    source="transactionId"
    label="resources.callbacks.fields.transactionId"
    alwaysOn
    resettable
  />,
];

/** Resend behind a confirmation that names the transaction and where the callback goes. */
export function ResendButton() {
  const record = useRecordContext<PanelCallbackDelivery>();
  const translate = useTranslate();
  const canResend = useCan('callbacks.resend');
  if (!record || !canResend) return null;
  return (
    <ConfirmAction
      label="logs.callbacks.resend"
      icon={<ReplayIcon />}
      title="logs.callbacks.resend_title"
      content={translate('logs.callbacks.resend_content', {
        number: record.transactionNumber,
        externalId: record.externalId,
        url: record.targetUrl,
      })}
      successMessage="logs.callbacks.resent"
      action={() => resendCallback(record.id)}
    />
  );
}

export function CallbackList() {
  return (
    <List
      filters={filters}
      actions={false}
      perPage={25}
      exporter={false}
      sort={{ field: 'createdAt', order: 'DESC' }}
      pagination={<Pagination rowsPerPageOptions={[25, 50, 100]} />}
    >
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <DateTimeField source="createdAt" sortable={false} />
        <NumberField source="transactionNumber" sortable={false} />
        <TextField source="externalId" sortable={false} />
        <SelectField source="type" choices={TYPES} sortable={false} />
        <SelectField source="outcome" choices={OUTCOMES} sortable={false} />
        <StateChip source="state" sortable={false} />
        <NumberField source="attemptCount" sortable={false} />
        <FunctionField
          source="lastStatusCode"
          sortable={false}
          render={(record: PanelCallbackDelivery) => record.lastStatusCode ?? record.lastError ?? '—'}
        />
        <TextField source="targetUrl" sortable={false} sx={{ wordBreak: 'break-all' }} />
        <ResendButton />
      </Datagrid>
    </List>
  );
}

/** An operator id as its username when the operator may read operators; the id otherwise. */
function OperatorName({ id }: { id: string }) {
  const canView = useCan('operators.view');
  const { data } = useGetOne<PanelOperator>('operators', { id }, { enabled: canView, retry: false });
  return <>{data?.username ?? id}</>;
}

function Attempts() {
  const record = useRecordContext<PanelCallbackDetail>();
  const translate = useTranslate();
  // The list's row stands in while the detail loads (react-admin's placeholder): no attempts yet.
  if (!record?.attempts) return null;
  const field = (name: string) => translate(`resources.callbacks.fields.attempts.${name}`);
  return (
    <Table size="small" aria-label={translate('resources.callbacks.fields.attempts.name')}>
      <TableHead>
        <TableRow>
          <TableCell>#</TableCell>
          <TableCell>{field('startedAt')}</TableCell>
          <TableCell>{field('trigger')}</TableCell>
          <TableCell>{field('outcome')}</TableCell>
          <TableCell>{field('statusCode')}</TableCell>
          <TableCell>{field('latencyMs')}</TableCell>
          <TableCell>{field('response')}</TableCell>
          <TableCell>{field('nextAttemptAt')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {record.attempts.length === 0 ? (
          <TableRow>
            <TableCell colSpan={8}>{translate('logs.callbacks.no_attempts')}</TableCell>
          </TableRow>
        ) : null}
        {record.attempts.map((attempt) => (
          <TableRow key={attempt.number}>
            <TableCell>{attempt.number}</TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(attempt.startedAt)}</TableCell>
            <TableCell>
              {translate(`logs.triggers.${attempt.trigger}`)}
              {attempt.requestedBy ? (
                <>
                  {' ('}
                  <OperatorName id={attempt.requestedBy} />
                  {')'}
                </>
              ) : null}
            </TableCell>
            <TableCell>
              <StateValueChip value={attempt.outcome} />
            </TableCell>
            <TableCell>{attempt.statusCode ?? '—'}</TableCell>
            <TableCell>{attempt.latencyMs ?? '—'}</TableCell>
            <TableCell sx={{ maxWidth: 320, wordBreak: 'break-all', fontFamily: 'monospace', fontSize: 12 }}>
              {attempt.error ?? attempt.responseExcerpt ?? ''}
            </TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>
              {attempt.nextAttemptAt ? formatDateTime(attempt.nextAttemptAt) : '—'}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function Body() {
  const record = useRecordContext<PanelCallbackDetail>();
  const translate = useTranslate();
  if (!record || !('body' in record)) return null;
  return <JsonBlock value={record.body} label={translate('resources.callbacks.fields.body')} />;
}

export function CallbackShow() {
  const translate = useTranslate();
  return (
    <Show
      actions={
        <TopToolbar>
          <ResendButton />
        </TopToolbar>
      }
    >
      <SimpleShowLayout>
        <Box sx={{ display: 'flex', gap: 4, flexWrap: 'wrap' }}>
          <Labeled label="resources.callbacks.fields.transactionNumber">
            <NumberField source="transactionNumber" />
          </Labeled>
          <Labeled label="resources.callbacks.fields.externalId">
            <TextField source="externalId" />
          </Labeled>
          <Labeled label="resources.callbacks.fields.type">
            <SelectField source="type" choices={TYPES} />
          </Labeled>
          <Labeled label="resources.callbacks.fields.outcome">
            <SelectField source="outcome" choices={OUTCOMES} />
          </Labeled>
          <Labeled label="resources.callbacks.fields.state">
            <StateChip source="state" />
          </Labeled>
          <Labeled label="resources.callbacks.fields.deliveredAt">
            <DateTimeField source="deliveredAt" />
          </Labeled>
          <Labeled label="resources.callbacks.fields.nextAttemptAt">
            <DateTimeField source="nextAttemptAt" />
          </Labeled>
        </Box>
        <TextField source="targetUrl" />
        <TextField source="webhookId" />
        <TextField source="format" />
        <Typography variant="subtitle2">{translate('resources.callbacks.fields.body')}</Typography>
        <Body />
        <Typography variant="subtitle2">{translate('resources.callbacks.fields.attempts.name')}</Typography>
        <Attempts />
      </SimpleShowLayout>
    </Show>
  );
}

export const callbacksResource = {
  name: 'callbacks',
  list: CallbackList,
  show: CallbackShow,
  icon: SendIcon,
  options: { label: 'resources.callbacks.name' },
};
