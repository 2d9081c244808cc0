import { flatCsvExporter } from '../../api/csv';
import StorefrontIcon from '@mui/icons-material/Storefront';
import { Box, Typography } from '@mui/material';
import {
  AutocompleteArrayInput,
  BooleanField,
  BooleanInput,
  Create,
  Datagrid,
  Edit,
  FunctionField,
  Labeled,
  List,
  NullableBooleanInput,
  NumberField,
  NumberInput,
  Pagination,
  ReferenceArrayInput,
  ReferenceManyField,
  SimpleForm,
  TextField,
  TextInput,
  maxValue,
  minValue,
  required,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
  type DataProvider,
} from 'react-admin';
import type {
  PanelMerchant,
  PanelMerchantProvidersResponse,
  PanelProvider,
  PanelRecordList,
  PanelRecordWriteResponse,
} from '@transfergate/contracts/panel';
import { panelFetch } from '../../api/http';
import { ConfirmAction } from './shared/confirm-action';
import { DateTimeField, MoneyField, PercentField } from './shared/fields';
import { pick, recordProvider } from './shared/record-provider';
import { overlayList, rememberWrite } from './shared/recent-writes';
import { RecordFormToolbar, RecordListActions } from './shared/toolbars';
import { useCan } from './shared/use-can';
import { formatTry } from '../../format/money';

/** GET /panel/merchants/:id, and in the edit form the merchant's active providers (set with /update-providers). */
export type Merchant = PanelMerchant & { providerIds?: string[] };

const SAVE_FIELDS: (keyof Merchant)[] = [
  'id',
  'name',
  'active',
  'minAmount',
  'maxAmount',
  'depositCommissionPercent',
  'withdrawalCommissionPercent',
  'overdraftLimit',
];

const base = recordProvider<Merchant, PanelMerchant>({
  listPath: '/panel/merchants',
  onePath: (id) => `/panel/merchants/${encodeURIComponent(id)}`,
  serverFilters: (filter) => ({ includeDeleted: filter.includeDeleted ? 'true' : undefined }),
  savePath: '/panel/merchants/save',
  toSaveBody: (data) => pick(data, SAVE_FIELDS),
  deletePath: '/panel/merchants/delete',
  toDeleteBody: (record) => ({ id: record.id }),
});

const PROVIDERS_PATH = '/panel/providers';

async function activeProviderIds(merchantId: string): Promise<string[]> {
  const answer = await panelFetch<PanelRecordList<PanelProvider>>(PROVIDERS_PATH, { query: { merchantId } });
  return overlayList(PROVIDERS_PATH, answer.items, false)
    .filter((provider) => provider.merchantId === merchantId && provider.active)
    .map((provider) => provider.id);
}

/** Sets the merchant's active providers; remembers the providers it changed (the lists may lag). */
async function updateMerchantProviders(id: string, providerIds: string[]): Promise<void> {
  const answer = await panelFetch<PanelMerchantProvidersResponse>('/panel/merchants/update-providers', {
    body: { id, providerIds },
  });
  await Promise.all(
    answer.changedProviders.map(async (providerId) =>
      rememberWrite(
        PROVIDERS_PATH,
        await panelFetch<PanelProvider>(`${PROVIDERS_PATH}/${encodeURIComponent(providerId)}`),
      ),
    ),
  );
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((id) => b.includes(id));

/** Merchants also load and save their active providers (the form edits both). */
export const merchantsDataProvider: Partial<DataProvider> = {
  ...base,
  getOne: async (resource, params) => {
    const { data } = await base.getOne!(resource, params);
    return { data: { ...data, providerIds: await activeProviderIds(String(params.id)) } } as never;
  },
  update: async (resource, params) => {
    const { data } = await base.update!(resource, params);
    const wanted = (params.data as Merchant).providerIds;
    const before = (params.previousData as Merchant).providerIds ?? [];
    if (wanted && !sameSet(wanted, before)) {
      await updateMerchantProviders(String(params.id), wanted);
    }
    return { data: { ...data, providerIds: await activeProviderIds(String(params.id)) } } as never;
  },
  toggleMerchant: async (_resource: string, params: { id: string; active: boolean }) => toggleMerchant(params),
};

/**
 * Called by the screens directly (also offered as a custom data provider method): the app's
 * dispatcher routes only react-admin's standard methods.
 */
export async function toggleMerchant(params: { id: string; active: boolean }) {
  const answer = await panelFetch<PanelRecordWriteResponse<PanelMerchant>>('/panel/merchants/toggle', { body: params });
  rememberWrite('/panel/merchants', answer.record);
  return answer;
}

const filters = [
  <TextInput key="q" source="q" label="records.common.search" alwaysOn resettable />,
  <NullableBooleanInput key="active" source="active" label="resources.merchants.fields.active" alwaysOn />,
  <BooleanInput key="includeDeleted" source="includeDeleted" label="records.common.include_deleted" />,
];

function ToggleActiveButton() {
  const record = useRecordContext<Merchant>();
  const translate = useTranslate();
  const canManage = useCan('merchants.manage');
  if (!record || !canManage || record.deleted) return null;
  const next = !record.active;
  return (
    <ConfirmAction
      label={next ? 'records.merchants.activate' : 'records.merchants.deactivate'}
      title={next ? 'records.merchants.activate_title' : 'records.merchants.deactivate_title'}
      content={translate(next ? 'records.merchants.activate_content' : 'records.merchants.deactivate_content', {
        name: record.name,
      })}
      color={next ? 'primary' : 'error'}
      successMessage="records.common.saved"
      action={() => toggleMerchant({ id: record.id, active: next })}
    />
  );
}

export function MerchantList() {
  return (
    <List
      actions={<RecordListActions manage="merchants.manage" />}
      filters={filters}
      filterDefaultValues={{}}
      sort={{ field: 'name', order: 'ASC' }}
      perPage={25}
      exporter={flatCsvExporter('merchants')}
      pagination={<Pagination rowsPerPageOptions={[10, 25, 50, 100]} />}
    >
      {/* Paired columns (limits, commissions) and small cells: the list fits a 1440 px screen. */}
      <Datagrid
        rowClick="edit"
        bulkActionButtons={false}
        size="small"
        sx={{ '& .RaDatagrid-rowCell, & .RaDatagrid-headerCell': { px: 1 } }}
      >
        <TextField source="name" />
        <FunctionField
          source="active"
          render={(record: Merchant) => (
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
              <BooleanField source="active" record={record} />
              <ToggleActiveButton />
            </Box>
          )}
        />
        <FunctionField
          label="records.merchants.limits"
          sortable={false}
          render={() => (
            <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
              <MoneyField source="minAmount" /> – <MoneyField source="maxAmount" />
            </Box>
          )}
        />
        <FunctionField
          label="records.merchants.commissions"
          sortable={false}
          render={() => (
            <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
              <PercentField source="depositCommissionPercent" /> / <PercentField source="withdrawalCommissionPercent" />
            </Box>
          )}
        />
        <MoneyField source="overdraftLimit" />
        <MoneyField source="balance" />
        <MoneyField source="available" />
        <NumberField source="providerCount" />
        <DateTimeField source="updatedAt" />
      </Datagrid>
    </List>
  );
}

const amount = [required(), minValue(0.01)];
const percent = [minValue(0), maxValue(100)];

function MerchantFields({ editing }: { editing: boolean }) {
  return (
    <>
      <TextInput
        source="name"
        validate={required()}
        disabled={editing}
        helperText={editing ? 'records.common.key_fixed' : false}
      />
      <BooleanInput source="active" />
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <NumberInput source="minAmount" validate={amount} step={0.01} fullWidth={false} />
        <NumberInput source="maxAmount" validate={amount} step={0.01} fullWidth={false} />
        <NumberInput source="overdraftLimit" validate={minValue(0)} step={0.01} fullWidth={false} />
      </Box>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <NumberInput source="depositCommissionPercent" validate={percent} step={0.01} fullWidth={false} />
        <NumberInput source="withdrawalCommissionPercent" validate={percent} step={0.01} fullWidth={false} />
      </Box>
    </>
  );
}

function Balance() {
  const record = useRecordContext<Merchant>();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Box sx={{ display: 'flex', gap: 4, mb: 2 }}>
      <Labeled label="resources.merchants.fields.balance">
        <Typography variant="h6">{formatTry(record.balance)}</Typography>
      </Labeled>
      <Labeled label="resources.merchants.fields.available">
        <Typography variant="h6">{formatTry(record.available)}</Typography>
      </Labeled>
      {record.deleted ? (
        <Typography color="error" sx={{ alignSelf: 'center' }}>
          {translate('records.common.deleted')}
        </Typography>
      ) : null}
    </Box>
  );
}

export function MerchantEdit() {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  return (
    <Edit
      mutationMode="pessimistic"
      redirect={false}
      actions={false}
      // A save may move providers: refresh the providers table below too, not only the merchant.
      mutationOptions={{
        onSuccess: () => {
          notify('ra.notification.updated', { type: 'info', messageArgs: { smart_count: 1 } });
          refresh();
        },
      }}
    >
      <SimpleForm
        toolbar={
          <RecordFormToolbar manage="merchants.manage" deletable deleteContent="records.merchants.delete_content" />
        }
      >
        <Balance />
        <MerchantFields editing />
        <ReferenceArrayInput source="providerIds" reference="providers" perPage={500}>
          <AutocompleteArrayInput
            optionText="name"
            label="resources.merchants.fields.providerIds"
            helperText="records.merchants.providers_help"
          />
        </ReferenceArrayInput>
        <Typography variant="subtitle1" sx={{ mt: 2 }}>
          {translate('records.merchants.providers_title')}
        </Typography>
        <ReferenceManyField reference="providers" target="merchantId" perPage={25} pagination={<Pagination />}>
          <Datagrid rowClick="edit" bulkActionButtons={false} empty={<Typography>—</Typography>}>
            <NumberField source="number" />
            <TextField source="name" />
            <TextField source="infrastructureSlug" />
            <TextField source="apiKey" sx={{ fontFamily: 'monospace' }} />
            <BooleanField source="active" />
          </Datagrid>
        </ReferenceManyField>
      </SimpleForm>
    </Edit>
  );
}

export function MerchantCreate() {
  return (
    <Create redirect="list">
      <SimpleForm
        toolbar={<RecordFormToolbar manage="merchants.manage" />}
        defaultValues={{ active: true, depositCommissionPercent: 0, withdrawalCommissionPercent: 0, overdraftLimit: 0 }}
      >
        <MerchantFields editing={false} />
      </SimpleForm>
    </Create>
  );
}

export const merchantsResource = {
  name: 'merchants',
  list: MerchantList,
  edit: MerchantEdit,
  create: MerchantCreate,
  icon: StorefrontIcon,
  options: { label: 'resources.merchants.name' },
};
