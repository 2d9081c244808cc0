import { flatCsvExporter } from '../../api/csv';
import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import { Box } from '@mui/material';
import {
  BooleanField,
  BooleanInput,
  Create,
  Datagrid,
  Edit,
  List,
  NullableBooleanInput,
  NumberInput,
  Pagination,
  SimpleForm,
  TextField,
  TextInput,
  minValue,
  required,
} from 'react-admin';
import type { PanelBankAccount } from '@transfergate/contracts/panel';
import { DateTimeField, IbanField, MoneyField } from './shared/fields';
import { groupIban } from './shared/iban';
import { pick, recordProvider } from './shared/record-provider';
import { RecordFormToolbar, RecordListActions } from './shared/toolbars';

export type BankAccount = PanelBankAccount;

const SAVE_FIELDS: (keyof BankAccount)[] = [
  'id',
  'bank',
  'holderName',
  'fast',
  'minAmount',
  'maxAmount',
  'dailyLimit',
  'active',
];

export const bankAccountsDataProvider = recordProvider<BankAccount>({
  listPath: '/panel/bank-accounts',
  onePath: (id) => `/panel/bank-accounts/${encodeURIComponent(id)}`,
  savePath: '/panel/bank-accounts/save',
  // The IBAN is the record's key; operators paste it grouped, the API takes it compact.
  toSaveBody: (data) => ({ ...pick(data, SAVE_FIELDS), iban: String(data.iban ?? '').replace(/\s+/g, '') }),
});

const filters = [
  <TextInput key="q" source="q" label="records.common.search" alwaysOn resettable />,
  <NullableBooleanInput key="active" source="active" label="resources.bank-accounts.fields.active" alwaysOn />,
  <NullableBooleanInput key="fast" source="fast" label="resources.bank-accounts.fields.fast" />,
];

export function BankAccountList() {
  return (
    <List
      actions={<RecordListActions manage="bank_accounts.manage" />}
      filters={filters}
      sort={{ field: 'bank', order: 'ASC' }}
      perPage={25}
      exporter={flatCsvExporter('bank-accounts')}
      pagination={<Pagination rowsPerPageOptions={[10, 25, 50, 100]} />}
    >
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="bank" />
        <IbanField source="iban" />
        <TextField source="holderName" />
        <BooleanField source="fast" />
        <MoneyField source="minAmount" />
        <MoneyField source="maxAmount" />
        <MoneyField source="dailyLimit" />
        <MoneyField source="issuedToday" />
        <BooleanField source="active" />
        <DateTimeField source="updatedAt" />
      </Datagrid>
    </List>
  );
}

const amount = [required(), minValue(0.01)];
const TR_IBAN = /^TR\d{24}$/;

function validIban(value: unknown) {
  const compact = String(value ?? '')
    .replace(/\s+/g, '')
    .toUpperCase();
  return TR_IBAN.test(compact) ? undefined : 'records.bank_accounts.iban_invalid';
}

function BankAccountFields({ editing }: { editing: boolean }) {
  return (
    <>
      <TextInput
        source="iban"
        validate={editing ? undefined : [required(), validIban]}
        disabled={editing}
        format={(value: unknown) => (typeof value === 'string' ? groupIban(value) : '')}
        parse={(text: string) => text.toUpperCase()}
        helperText={editing ? 'records.common.key_fixed' : 'records.bank_accounts.iban_help'}
        sx={{ minWidth: 360 }}
        slotProps={{ htmlInput: { style: { fontFamily: 'monospace' }, spellCheck: false } }}
      />
      <TextInput source="bank" validate={required()} />
      <TextInput source="holderName" validate={required()} />
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <NumberInput source="minAmount" validate={amount} step={0.01} fullWidth={false} />
        <NumberInput source="maxAmount" validate={amount} step={0.01} fullWidth={false} />
        <NumberInput source="dailyLimit" validate={amount} step={0.01} fullWidth={false} />
      </Box>
      <BooleanInput source="fast" />
      <BooleanInput source="active" />
    </>
  );
}

export function BankAccountEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect={false} actions={false}>
      <SimpleForm toolbar={<RecordFormToolbar manage="bank_accounts.manage" />}>
        <BankAccountFields editing />
      </SimpleForm>
    </Edit>
  );
}

export function BankAccountCreate() {
  return (
    <Create redirect="list">
      <SimpleForm
        toolbar={<RecordFormToolbar manage="bank_accounts.manage" />}
        defaultValues={{ fast: true, active: true }}
      >
        <BankAccountFields editing={false} />
      </SimpleForm>
    </Create>
  );
}

export const bankAccountsResource = {
  name: 'bank-accounts',
  list: BankAccountList,
  edit: BankAccountEdit,
  create: BankAccountCreate,
  icon: AccountBalanceIcon,
  options: { label: 'resources.bank-accounts.name' },
};
