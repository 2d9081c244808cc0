import { flatCsvExporter } from '../../api/csv';
import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import {
  BooleanField,
  BooleanInput,
  Create,
  Datagrid,
  Edit,
  List,
  NullableBooleanInput,
  Pagination,
  PasswordInput,
  ReferenceInput,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  minLength,
  required,
} from 'react-admin';
import type { PanelOperator } from '@transfergate/contracts/panel';
import { DateTimeField } from './shared/fields';
import { pick, recordProvider } from './shared/record-provider';
import { RecordFormToolbar, RecordListActions } from './shared/toolbars';

/** The form also holds a new password (never read back). */
export type Operator = PanelOperator & { password?: string };

export const operatorsDataProvider = recordProvider<Operator, PanelOperator>({
  listPath: '/panel/operators',
  onePath: (id) => `/panel/operators/${encodeURIComponent(id)}`,
  savePath: '/panel/operators/save',
  toSaveBody: (data) => pick(data, ['id', 'username', 'password', 'role', 'active']),
});

const filters = [
  <TextInput key="q" source="q" label="records.common.search" alwaysOn resettable />,
  <ReferenceInput key="role" source="role" reference="roles" alwaysOn>
    <SelectInput optionText="name" label="resources.operators.fields.role" />
  </ReferenceInput>,
  <NullableBooleanInput key="active" source="active" label="resources.operators.fields.active" />,
];

export function OperatorList() {
  return (
    <List
      actions={<RecordListActions manage="operators.manage" />}
      filters={filters}
      sort={{ field: 'username', order: 'ASC' }}
      perPage={25}
      exporter={flatCsvExporter('operators')}
      pagination={<Pagination rowsPerPageOptions={[10, 25, 50]} />}
    >
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="username" />
        <TextField source="role" />
        <BooleanField source="active" />
        <BooleanField source="twoFactorEnabled" />
        <DateTimeField source="updatedAt" />
      </Datagrid>
    </List>
  );
}

function OperatorFields({ editing }: { editing: boolean }) {
  return (
    <>
      <TextInput
        source="username"
        validate={[required(), minLength(3)]}
        disabled={editing}
        helperText={editing ? 'records.common.key_fixed' : false}
        autoComplete="off"
      />
      <ReferenceInput source="role" reference="roles" perPage={200}>
        <SelectInput optionText="name" validate={required()} label="resources.operators.fields.role" />
      </ReferenceInput>
      <PasswordInput
        source="password"
        label={editing ? 'records.operators.new_password' : 'resources.operators.fields.password'}
        validate={editing ? undefined : required()}
        helperText="records.operators.password_help"
        autoComplete="new-password"
      />
      <BooleanInput source="active" />
    </>
  );
}

export function OperatorEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect={false} actions={false}>
      <SimpleForm toolbar={<RecordFormToolbar manage="operators.manage" />}>
        <OperatorFields editing />
      </SimpleForm>
    </Edit>
  );
}

export function OperatorCreate() {
  return (
    <Create redirect="list">
      <SimpleForm toolbar={<RecordFormToolbar manage="operators.manage" />} defaultValues={{ active: true }}>
        <OperatorFields editing={false} />
      </SimpleForm>
    </Create>
  );
}

export const operatorsResource = {
  name: 'operators',
  list: OperatorList,
  edit: OperatorEdit,
  create: OperatorCreate,
  icon: ManageAccountsIcon,
  options: { label: 'resources.operators.name' },
};
