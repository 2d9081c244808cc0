import { flatCsvExporter } from '../../api/csv';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import { Alert } from '@mui/material';
import { useEffect, useState } from 'react';
import {
  BooleanField,
  CheckboxGroupInput,
  Create,
  Datagrid,
  Edit,
  FunctionField,
  List,
  Pagination,
  SimpleForm,
  TextField,
  TextInput,
  regex,
  required,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import type { PanelRole, PermissionCatalogue } from '@transfergate/contracts/panel';
import { panelFetch } from '../../api/http';
import { DateTimeField } from './shared/fields';
import { recordProvider } from './shared/record-provider';
import { RecordFormToolbar, RecordListActions } from './shared/toolbars';

/** Roles are keyed by name: react-admin's id is the name (built-in roles have no UUID). */
export type Role = Omit<PanelRole, 'id'> & {
  /** The role's name. */
  id: string;
  /** The API's `id`: the custom role's record id, null for a built-in role. */
  roleId: string | null;
};

export const rolesDataProvider = recordProvider<Role, PanelRole>({
  listPath: '/panel/roles',
  onePath: (name) => `/panel/roles/${encodeURIComponent(name)}`,
  serverFilters: (filter) => ({ includeDeleted: filter.includeDeleted ? 'true' : undefined }),
  toRecord: (row) => ({ ...row, roleId: row.id, id: row.name }),
  savePath: '/panel/roles/save',
  toSaveBody: (data) => ({ name: data.name, permissions: data.permissions ?? [] }),
  deletePath: '/panel/roles/delete',
  toDeleteBody: (record) => ({ name: record.name }),
});
/** GET /api/config/permissions, with the description in the UI language when we have one. */
function usePermissionChoices(): Array<{ id: string; name: string }> {
  const translate = useTranslate();
  const [catalogue, setCatalogue] = useState<PermissionCatalogue['permissions']>([]);
  useEffect(() => {
    let live = true;
    panelFetch<PermissionCatalogue>('/api/config/permissions')
      .then((answer) => {
        if (live) setCatalogue(answer.permissions);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return catalogue.map((permission) => ({
    id: permission.name,
    name: `${permission.name} — ${translate(`records.permission_names.${permission.name.replace('.', '_')}`, {
      _: permission.description,
    })}`,
  }));
}

export function RoleList() {
  const translate = useTranslate();
  return (
    <List
      actions={<RecordListActions manage="roles.manage" />}
      filters={[<TextInput key="q" source="q" label="records.common.search" alwaysOn resettable />]}
      sort={{ field: 'name', order: 'ASC' }}
      perPage={25}
      exporter={flatCsvExporter('roles')}
      pagination={<Pagination rowsPerPageOptions={[10, 25, 50]} />}
    >
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="name" />
        <BooleanField source="builtIn" />
        <FunctionField
          source="permissions"
          sortable={false}
          render={(record: Role) =>
            translate('records.roles.permission_count', { smart_count: record.permissions.length })
          }
        />
        <DateTimeField source="updatedAt" />
      </Datagrid>
    </List>
  );
}

function BuiltInNotice() {
  const record = useRecordContext<Role>();
  const translate = useTranslate();
  if (!record?.builtIn) return null;
  return (
    <Alert severity="info" sx={{ mb: 2 }}>
      {translate('records.roles.built_in')}
    </Alert>
  );
}

function RoleForm({ editing }: { editing: boolean }) {
  const record = useRecordContext<Role>();
  const choices = usePermissionChoices();
  const builtIn = Boolean(record?.builtIn);
  return (
    <SimpleForm
      toolbar={
        builtIn ? (
          false
        ) : (
          <RecordFormToolbar manage="roles.manage" deletable={editing} deleteContent="records.roles.delete_content" />
        )
      }
      defaultValues={{ permissions: [] }}
    >
      <BuiltInNotice />
      <TextInput
        source="name"
        validate={[required(), regex(/^[a-z][a-z0-9_-]{1,31}$/, 'records.roles.name_invalid')]}
        disabled={editing}
        helperText={editing ? 'records.common.key_fixed' : 'records.roles.name_help'}
      />
      <CheckboxGroupInput source="permissions" choices={choices} row={false} disabled={builtIn} />
    </SimpleForm>
  );
}

export function RoleEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect={false} actions={false}>
      <RoleForm editing />
    </Edit>
  );
}

export function RoleCreate() {
  return (
    <Create redirect="list">
      <RoleForm editing={false} />
    </Create>
  );
}

export const rolesResource = {
  name: 'roles',
  list: RoleList,
  edit: RoleEdit,
  create: RoleCreate,
  icon: AdminPanelSettingsIcon,
  options: { label: 'resources.roles.name' },
};
