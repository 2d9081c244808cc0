import InputIcon from '@mui/icons-material/Input';
import { Box, Typography } from '@mui/material';
import {
  Datagrid,
  FunctionField,
  Labeled,
  List,
  Pagination,
  SelectField,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
  TextInput,
  useRecordContext,
  useTranslate,
  type DataProvider,
} from 'react-admin';
import type { WebhookLogEntry, WebhookLogItem, WebhookLogPage } from '@transfergate/contracts/panel';
import { panelFetch } from '../../api/http';
import { DateTimeField } from '../records/shared/fields';
import { cursorLister, filterText } from './cursor-pages';
import { JsonBlock, StateChip } from './log-fields';

const listWebhooks = cursorLister<WebhookLogItem>((filter, limit, cursor) =>
  panelFetch<WebhookLogPage>('/panel/webhooks', {
    query: {
      slug: filterText(filter.slug),
      outcome: filterText(filter.outcome),
      kind: filterText(filter.kind),
      transactionId: filterText(filter.transactionId),
      limit,
      cursor,
    },
  }),
);

export const webhooksDataProvider: Partial<DataProvider> = {
  getList: async (_resource, params) => (await listWebhooks(params)) as never,
  getOne: async (_resource, params) =>
    ({ data: await panelFetch<WebhookLogEntry>(`/panel/webhooks/${encodeURIComponent(String(params.id))}`) }) as never,
};

/** libs/contracts WEBHOOK_OUTCOMES and WEBHOOK_KINDS. */
const OUTCOMES = ['received', 'applied', 'ignored_repeat', 'refused', 'failed'].map((id) => ({
  id,
  name: `logs.states.${id}`,
}));
const KINDS = ['deposit', 'withdrawal'].map((id) => ({ id, name: `logs.types.${id}` }));

const filters = [
  <TextInput key="slug" source="slug" label="resources.webhooks.fields.slug" alwaysOn resettable />,
  <SelectInput key="outcome" source="outcome" choices={OUTCOMES} label="resources.webhooks.fields.outcome" alwaysOn />,
  <SelectInput key="kind" source="kind" choices={KINDS} label="resources.webhooks.fields.kind" alwaysOn />,
  <TextInput
    key="transactionId"
    source="transactionId"
    label="resources.webhooks.fields.transactionId"
    helperText="logs.webhooks.transaction_help"
  />,
];

export function WebhookList() {
  return (
    <List
      filters={filters}
      actions={false}
      perPage={25}
      exporter={false}
      sort={{ field: 'receivedAt', order: 'DESC' }}
      pagination={<Pagination rowsPerPageOptions={[25, 50, 100]} />}
    >
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <DateTimeField source="receivedAt" sortable={false} />
        <TextField source="slug" sortable={false} />
        <SelectField source="kind" choices={KINDS} sortable={false} />
        <TextField source="sourceIp" sortable={false} />
        <TextField source="statusValue" sortable={false} emptyText="—" />
        <StateChip source="outcome" sortable={false} />
        <FunctionField
          source="httpStatus"
          sortable={false}
          render={(record: WebhookLogItem) => record.httpStatus ?? '—'}
        />
        <FunctionField
          source="reason"
          sortable={false}
          render={(record: WebhookLogItem) =>
            [record.errorCode, record.reason].filter((part) => part !== null && part !== '').join(': ') || '—'
          }
        />
        <TextField source="transactionId" sortable={false} emptyText="—" />
      </Datagrid>
    </List>
  );
}

function Received() {
  const record = useRecordContext<WebhookLogEntry>();
  const translate = useTranslate();
  // The list's row stands in while the entry loads: no headers or body yet.
  if (!record?.headers) return null;
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { md: '1fr 1fr' } }}>
      <Box>
        <Typography variant="subtitle2">{translate('resources.webhooks.fields.headers')}</Typography>
        <JsonBlock value={record.headers} label={translate('resources.webhooks.fields.headers')} />
      </Box>
      <Box>
        <Typography variant="subtitle2">
          {translate('resources.webhooks.fields.body')}
          {record.bodyTruncated ? ` (${translate('logs.webhooks.truncated')})` : ''}
        </Typography>
        {record.rawText !== null ? (
          <JsonBlock value={record.rawText} label={translate('resources.webhooks.fields.body')} />
        ) : (
          <JsonBlock value={record.body} label={translate('resources.webhooks.fields.body')} />
        )}
      </Box>
    </Box>
  );
}

export function WebhookShow() {
  return (
    <Show actions={false}>
      <SimpleShowLayout>
        <Box sx={{ display: 'flex', gap: 4, flexWrap: 'wrap' }}>
          <Labeled label="resources.webhooks.fields.receivedAt">
            <DateTimeField source="receivedAt" />
          </Labeled>
          <Labeled label="resources.webhooks.fields.slug">
            <TextField source="slug" />
          </Labeled>
          <Labeled label="resources.webhooks.fields.infrastructureSlug">
            <TextField source="infrastructureSlug" emptyText="—" />
          </Labeled>
          <Labeled label="resources.webhooks.fields.kind">
            <SelectField source="kind" choices={KINDS} />
          </Labeled>
          <Labeled label="resources.webhooks.fields.outcome">
            <StateChip source="outcome" />
          </Labeled>
          <Labeled label="resources.webhooks.fields.httpStatus">
            <TextField source="httpStatus" emptyText="—" />
          </Labeled>
        </Box>
        <TextField source="path" />
        <TextField source="sourceIp" />
        <TextField source="statusValue" emptyText="—" />
        <TextField source="errorCode" emptyText="—" />
        <TextField source="reason" emptyText="—" />
        <TextField source="transactionId" emptyText="—" />
        <Received />
      </SimpleShowLayout>
    </Show>
  );
}

export const webhooksResource = {
  name: 'webhooks',
  list: WebhookList,
  show: WebhookShow,
  icon: InputIcon,
  options: { label: 'resources.webhooks.name' },
};
