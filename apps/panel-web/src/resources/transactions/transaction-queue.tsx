import {
  Datagrid,
  DateInput,
  FunctionField,
  List,
  Pagination,
  SelectInput,
  TextField,
  TextInput,
  useTranslate,
} from 'react-admin';
import { Typography } from '@mui/material';
import { DateTime, Money, RecordName, StateChip } from './fields';
import { useRecordChoices } from './record-names';
import { TransactionActions } from './transaction-actions';
import { OPEN_STATES, STATES, type PanelTransaction } from './types';

/** The queues poll: operators keep them open all day and must see new requests without a reload. */
export const QUEUE_REFRESH_MS = 5_000;

function queueFilters(
  type: PanelTransaction['type'],
  translate: (key: string) => string,
  merchants: Array<{ id: string; name: string }> | null,
) {
  const openChoice = { id: OPEN_STATES[type].join(','), name: translate('tg.tx.filters.open') };
  const stateChoices = [
    openChoice,
    ...STATES[type].map((state) => ({ id: state, name: translate(`tg.tx.state.${state}`) })),
  ];
  return [
    // A labelled text field rather than SearchInput, whose input has only a placeholder.
    <TextInput key="q" source="q" label="tg.tx.filters.q" alwaysOn resettable />,
    <SelectInput
      key="state"
      source="state"
      label="tg.tx.filters.state"
      choices={stateChoices}
      alwaysOn
      emptyText="—"
    />,
    <DateInput key="from" source="from" label="tg.tx.filters.from" alwaysOn />,
    <DateInput key="to" source="to" label="tg.tx.filters.to" alwaysOn />,
    // By name when the operator may list merchants, else by id.
    merchants ? (
      <SelectInput key="merchantId" source="merchantId" label="tg.tx.filters.merchant" choices={merchants} />
    ) : (
      <TextInput key="merchantId" source="merchantId" label="tg.tx.filters.merchant_id" />
    ),
  ];
}

/** The deposit or withdrawal approval queue: open ones first by default, newest first. */
export function TransactionQueue({ type }: { type: PanelTransaction['type'] }) {
  const translate = useTranslate();
  const merchants = useRecordChoices('merchant');
  return (
    <List
      title={translate(type === 'deposit' ? 'tg.tx.deposits' : 'tg.tx.withdrawals')}
      filters={queueFilters(type, translate, merchants)}
      filterDefaultValues={{ state: OPEN_STATES[type].join(',') }}
      perPage={25}
      pagination={<Pagination rowsPerPageOptions={[10, 25, 50, 100]} />}
      queryOptions={{ refetchInterval: QUEUE_REFRESH_MS, refetchIntervalInBackground: false }}
      disableSyncWithLocation={false}
      exporter={false}
      storeKey={`${type}-queue`}
    >
      <Typography variant="caption" color="text.secondary" sx={{ px: 2, pt: 1 }}>
        {translate('tg.tx.auto_refresh', { seconds: QUEUE_REFRESH_MS / 1000 })}
      </Typography>
      <Datagrid
        rowClick="show"
        bulkActionButtons={false}
        data-testid={`${type}-queue`}
        // Tighter cells: the withdrawal queue's ten columns fit a laptop screen without scrolling.
        sx={{ '& .RaDatagrid-rowCell, & .RaDatagrid-headerCell': { px: 1 } }}
      >
        <TextField source="number" label="tg.tx.fields.number" sortable={false} />
        <FunctionField
          label="tg.tx.fields.created_at"
          sortable={false}
          render={(record: PanelTransaction) => <DateTime iso={record.createdAt} />}
        />
        <FunctionField
          label="tg.tx.fields.customer"
          sortable={false}
          render={(record: PanelTransaction) => record.customer.fullName}
        />
        <FunctionField
          label="tg.tx.fields.amount"
          sortable={false}
          textAlign="right"
          render={(record: PanelTransaction) => <Money amount={record.amount} />}
        />
        <FunctionField
          label="tg.tx.fields.state"
          sortable={false}
          render={(record: PanelTransaction) => <StateChip state={record.state} />}
        />
        <TextField source="externalId" label="tg.tx.fields.external_id" sortable={false} />
        <FunctionField
          label="tg.tx.fields.merchant"
          sortable={false}
          render={(record: PanelTransaction) => <RecordName kind="merchant" id={record.merchantId} />}
        />
        {type === 'withdrawal' ? <TextField source="iban" label="tg.tx.fields.iban" sortable={false} /> : null}
        {type === 'withdrawal' ? (
          <FunctionField
            label="tg.tx.fields.assignee"
            sortable={false}
            render={(record: PanelTransaction) => <RecordName kind="operator" id={record.assignee} />}
          />
        ) : null}
        <FunctionField
          label=""
          sortable={false}
          render={(record: PanelTransaction) => <TransactionActions record={record} compact />}
        />
      </Datagrid>
    </List>
  );
}
