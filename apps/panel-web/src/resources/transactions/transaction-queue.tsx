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
import { Typography, useMediaQuery, type Theme } from '@mui/material';
import { useMemo } from 'react';
import { FilterButton, TopToolbar } from 'react-admin';
import { groupIban } from './approve-checks';
import { BulkDecisionButtons, BulkResults } from './bulk-actions';
import { QueueExportButton } from './export-button';
import { Clipped, Money, RecordName, StateChip } from './fields';
import { useRecordChoices, useRecordName } from './record-names';
import { RowCheckboxLabels } from './row-checkbox-labels';
import { TimeLeft } from './time-left';
import { TransactionActions } from './transaction-actions';
import { transactionCsvExporter } from './transaction-csv';
import { HELD_STATE, OPEN_STATES, STATES, type PanelTransaction } from './types';
import { PhoneQueue } from './phone-queue';

/** The queues poll: operators keep them open all day and must see new requests without a reload. */
export const QUEUE_REFRESH_MS = 5_000;

/**
 * The default view: what still needs an operator. For deposits that includes expired ones (a late
 * transfer is the commonest case and an expired deposit can still be approved); the urgency order
 * puts reported payments first and expired ones last, so they never hide the open ones.
 */
export const DEFAULT_STATES: Record<PanelTransaction['type'], readonly PanelTransaction['state'][]> = {
  deposit: [...OPEN_STATES.deposit, HELD_STATE, 'expired'],
  withdrawal: [...OPEN_STATES.withdrawal, HELD_STATE],
};

function queueFilters(
  type: PanelTransaction['type'],
  translate: (key: string) => string,
  merchants: Array<{ id: string; name: string }> | null,
  bankAccounts: Array<{ id: string; name: string }> | null,
) {
  const openChoice = {
    id: DEFAULT_STATES[type].join(','),
    name: translate(type === 'deposit' ? 'tg.queue.open_deposits' : 'tg.tx.filters.open'),
  };
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
      emptyText="tg.tx.filters.all"
    />,
    <DateInput key="from" source="from" label="tg.tx.filters.from" alwaysOn />,
    <DateInput key="to" source="to" label="tg.tx.filters.to" alwaysOn />,
    // By name when the operator may list merchants, else by id.
    merchants ? (
      <SelectInput key="merchantId" source="merchantId" label="tg.tx.filters.merchant" choices={merchants} />
    ) : (
      <TextInput key="merchantId" source="merchantId" label="tg.tx.filters.merchant_id" />
    ),
    <TextInput key="amountMin" source="amountMin" label="tg.queue.amount_min" alwaysOn sx={{ width: 130 }} />,
    <TextInput key="amountMax" source="amountMax" label="tg.queue.amount_max" alwaysOn sx={{ width: 130 }} />,
    ...(type === 'deposit' && bankAccounts
      ? [
          <SelectInput
            key="bankAccountId"
            source="bankAccountId"
            label="tg.queue.bank_account"
            choices={bankAccounts}
          />,
        ]
      : []),
  ];
}

/** The deposit or withdrawal approval queue: open ones first by default, newest first. */
export function TransactionQueue({ type }: { type: PanelTransaction['type'] }) {
  const translate = useTranslate();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const merchants = useRecordChoices('merchant');
  const bankAccounts = useRecordChoices('bankAccount');
  const merchantName = useRecordName('merchant');
  const operatorName = useRecordName('operator');
  const exporter = useMemo(
    () => transactionCsvExporter(type, translate, { merchant: merchantName, operator: operatorName }),
    [type, translate, merchantName, operatorName],
  );
  return (
    <List
      title={translate(type === 'deposit' ? 'tg.tx.deposits' : 'tg.tx.withdrawals')}
      filters={queueFilters(type, translate, merchants, bankAccounts)}
      filterDefaultValues={{ state: DEFAULT_STATES[type].join(',') }}
      sort={{ field: 'urgency', order: 'ASC' }}
      actions={
        <TopToolbar>
          <FilterButton />
          <QueueExportButton exporter={exporter} />
        </TopToolbar>
      }
      perPage={25}
      pagination={<Pagination rowsPerPageOptions={[10, 25, 50, 100]} />}
      queryOptions={{ refetchInterval: QUEUE_REFRESH_MS, refetchIntervalInBackground: false }}
      disableSyncWithLocation={false}
      exporter={false}
      storeKey={`${type}-queue-v2`}
    >
      <RowCheckboxLabels testId={`${type}-queue`} />
      <BulkResults type={type} storeKey={`${type}-queue-v2`} />
      <Typography variant="caption" color="text.secondary" sx={{ px: 2, pt: 1 }}>
        {translate('tg.tx.auto_refresh', { seconds: QUEUE_REFRESH_MS / 1000 })}
      </Typography>
      {/* On a phone, cards instead of the table: nothing wider than the screen, buttons under the thumb. */}
      {phone ? (
        <PhoneQueue type={type} />
      ) : (
        <Datagrid
          // Tighter cells: the withdrawal queue's columns fit a 1440 px screen on one line per row.
          sx={{ '& .RaDatagrid-rowCell, & .RaDatagrid-headerCell': { px: 0.5 } }}
          rowClick="show"
          bulkActionButtons={<BulkDecisionButtons type={type} />}
          data-testid={`${type}-queue`}
          size="small"
        >
          <TextField source="number" label="tg.tx.fields.number" sortBy="number" />
          <FunctionField
            label="tg.queue.time"
            sortBy="createdAt"
            render={(record: PanelTransaction) => <TimeLeft record={record} />}
          />
          <FunctionField
            label="tg.tx.fields.customer"
            sortable={false}
            render={(record: PanelTransaction) => <Clipped text={record.customer.fullName} maxWidth={120} />}
          />
          <FunctionField
            label="tg.tx.fields.amount"
            sortBy="amount"
            textAlign="right"
            render={(record: PanelTransaction) => <Money amount={record.amount} />}
          />
          <FunctionField
            label="tg.tx.fields.state"
            sortBy="urgency"
            render={(record: PanelTransaction) => <StateChip state={record.state} />}
          />
          <FunctionField
            label="tg.tx.fields.external_id"
            sortable={false}
            render={(record: PanelTransaction) => <Clipped text={record.externalId} maxWidth={105} />}
          />
          <FunctionField
            label="tg.tx.fields.merchant"
            sortable={false}
            render={(record: PanelTransaction) => (
              <Clipped text={merchantName(record.merchantId) ?? record.merchantId} maxWidth={95} />
            )}
          />
          {type === 'withdrawal' ? (
            <FunctionField
              label="tg.tx.fields.iban"
              sortable={false}
              render={(record: PanelTransaction) => (
                <span style={{ fontFamily: 'monospace', fontSize: 12, whiteSpace: 'nowrap' }}>
                  {record.iban ? groupIban(record.iban) : '—'}
                </span>
              )}
            />
          ) : null}
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
      )}
    </List>
  );
}
