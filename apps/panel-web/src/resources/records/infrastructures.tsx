import { flatCsvExporter } from '../../api/csv';
import HubIcon from '@mui/icons-material/Hub';
import {
  Create,
  Datagrid,
  Edit,
  List,
  Pagination,
  SelectField,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  regex,
  required,
} from 'react-admin';
import type { PanelInfrastructure } from '@transfergate/contracts/panel';
import { DateTimeField, ListTextField } from './shared/fields';
import { ipListFormat, toIpList } from './shared/ip-list';
import { pick, recordProvider } from './shared/record-provider';
import { RecordFormToolbar, RecordListActions } from './shared/toolbars';

export type Infrastructure = PanelInfrastructure;

/** libs/contracts API_FORM_NAMES and CALLBACK_FORMATS (names are the wire values, not translated). */
const API_FORMS = [
  { id: 'merchant', name: 'Merchant API' },
  { id: 'h2h', name: 'H2H' },
  { id: 'infrastructure', name: 'Infrastructure API' },
];
const CALLBACK_FORMATS = [...API_FORMS, { id: 'md5', name: 'MD5' }];

const SAVE_FIELDS: (keyof Infrastructure)[] = [
  'id',
  'slug',
  'name',
  'apiForm',
  'callbackFormat',
  'callback_deposit',
  'callback_withdrawal',
];

export const infrastructuresDataProvider = recordProvider<Infrastructure>({
  listPath: '/panel/infrastructures',
  onePath: (id) => `/panel/infrastructures/${encodeURIComponent(id)}`,
  savePath: '/panel/infrastructure/save',
  toSaveBody: (data) => {
    const webhookAllowedIps = toIpList(data.webhookAllowedIps);
    return { ...pick(data, SAVE_FIELDS), ...(webhookAllowedIps ? { webhookAllowedIps } : {}) };
  },
});

const filters = [<TextInput key="q" source="q" label="records.common.search" alwaysOn resettable />];

export function InfrastructureList() {
  return (
    <List
      actions={<RecordListActions manage="infrastructures.manage" />}
      filters={filters}
      sort={{ field: 'slug', order: 'ASC' }}
      perPage={25}
      exporter={flatCsvExporter('infrastructures')}
      pagination={<Pagination rowsPerPageOptions={[10, 25, 50, 100]} />}
    >
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="slug" />
        <TextField source="name" />
        <SelectField source="apiForm" choices={API_FORMS} />
        <SelectField source="callbackFormat" choices={CALLBACK_FORMATS} />
        <TextField source="callback_deposit" />
        <TextField source="callback_withdrawal" />
        <ListTextField source="webhookAllowedIps" emptyText="records.infrastructures.no_ip" />
        <DateTimeField source="updatedAt" />
      </Datagrid>
    </List>
  );
}

const url = [required(), regex(/^https?:\/\/\S+$/, 'records.common.url_invalid')];

function InfrastructureFields({ editing }: { editing: boolean }) {
  return (
    <>
      <TextInput
        source="slug"
        validate={[required(), regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'records.infrastructures.slug_invalid')]}
        disabled={editing}
        helperText={editing ? 'records.common.key_fixed' : 'records.infrastructures.slug_help'}
      />
      <TextInput source="name" validate={required()} />
      <SelectInput source="apiForm" choices={API_FORMS} validate={required()} />
      <SelectInput source="callbackFormat" choices={CALLBACK_FORMATS} validate={required()} />
      <TextInput source="callback_deposit" validate={url} type="url" fullWidth />
      <TextInput source="callback_withdrawal" validate={url} type="url" fullWidth />
      <TextInput
        source="webhookAllowedIps"
        multiline
        minRows={2}
        format={ipListFormat}
        helperText="records.infrastructures.webhook_ips_help"
      />
    </>
  );
}

export function InfrastructureEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect={false} actions={false}>
      <SimpleForm toolbar={<RecordFormToolbar manage="infrastructures.manage" />}>
        <InfrastructureFields editing />
      </SimpleForm>
    </Edit>
  );
}

export function InfrastructureCreate() {
  return (
    <Create redirect="list">
      <SimpleForm
        toolbar={<RecordFormToolbar manage="infrastructures.manage" />}
        defaultValues={{ webhookAllowedIps: [] }}
      >
        <InfrastructureFields editing={false} />
      </SimpleForm>
    </Create>
  );
}

export const infrastructuresResource = {
  name: 'infrastructures',
  list: InfrastructureList,
  edit: InfrastructureEdit,
  create: InfrastructureCreate,
  icon: HubIcon,
  options: { label: 'resources.infrastructures.name' },
};
