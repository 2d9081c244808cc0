import HistoryIcon from '@mui/icons-material/History';
import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { alpha } from '@mui/material/styles';
import {
  Datagrid,
  DateInput,
  FunctionField,
  List,
  Pagination,
  ReferenceInput,
  SelectInput,
  TextField,
  TextInput,
  useRecordContext,
  useTranslate,
  type DataProvider,
} from 'react-admin';
import type { AuditEntry as AuditEntryAnswer, AuditPage } from '@transfergate/contracts/panel';
import { panelFetch } from '../../api/http';
import { DateTimeField } from '../records/shared/fields';
import { useCan } from '../records/shared/use-can';
import { useRecordName } from '../transactions/record-names';
import { AUDIT_TYPES, auditSentence } from './audit-sentence';
import { cursorLister, filterText } from './cursor-pages';

/** A react-admin record needs an id: the entry's global position is unique. */
export type AuditEntry = AuditEntryAnswer & { id: string };

const listAudit = cursorLister<AuditEntry>(async (filter, limit, cursor) => {
  const answer = await panelFetch<AuditPage>('/panel/audit', {
    query: {
      operatorId: filterText(filter.operatorId),
      // Event type names are PascalCase; let the operator type them with spaces or commas.
      type: filterText(filter.type)
        ?.replace(/[\s,]+/g, ',')
        .replace(/^,|,$/g, ''),
      from: filterText(filter.from),
      to: filterText(filter.to),
      limit,
      cursor,
    },
  });
  return { ...answer, items: answer.items.map((entry): AuditEntry => ({ ...entry, id: entry.position })) };
});

export const auditDataProvider: Partial<DataProvider> = {
  getList: async (_resource, params) => (await listAudit(params)) as never,
};

/** The operator filter picks from the operator list when the operator may read it, else takes an id. */
function auditFilters(canListOperators: boolean, translate: (key: string) => string) {
  return [
    canListOperators ? (
      <ReferenceInput key="operatorId" source="operatorId" reference="operators" alwaysOn>
        <SelectInput optionText="username" label="resources.audit.fields.operatorId" />
      </ReferenceInput>
    ) : (
      <TextInput key="operatorId" source="operatorId" label="resources.audit.fields.operatorId" alwaysOn />
    ),
    <SelectInput
      key="type"
      source="type"
      label="resources.audit.fields.type"
      choices={AUDIT_TYPES.map((type) => ({ id: type, name: translate(`logs.audit.types.${type}`) }))}
      alwaysOn
    />,
    <DateInput key="from" source="from" label="logs.audit.from" alwaysOn />,
    <DateInput key="to" source="to" label="logs.audit.to" alwaysOn />,
  ];
}

/** Which record an entry is about, as operators name it: `#12` for a transaction, else its name. */
function recordLabel(entry: AuditEntry): string {
  if (entry.transactionNumber !== null) return `#${entry.transactionNumber}`;
  if (entry.statementLine?.bankReference) return entry.statementLine.bankReference;
  const after = entry.after ?? {};
  for (const field of ['name', 'username', 'iban', 'slug', 'fileName']) {
    if (typeof after[field] === 'string') return after[field] as string;
  }
  return '—';
}

function cell(value: unknown): string {
  if (value === undefined) return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** Before/after of one entry, changed fields first and marked. */
export function AuditChanges() {
  const record = useRecordContext<AuditEntry>();
  const translate = useTranslate();
  if (!record) return null;
  const before = record.before ?? {};
  const after = record.after ?? {};
  const changed = new Set(record.changes ?? []);
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort(
    (a, b) => Number(changed.has(b)) - Number(changed.has(a)) || a.localeCompare(b),
  );
  return (
    <Box sx={{ p: 1 }}>
      <Typography variant="caption" component="p" sx={{ mb: 1 }}>
        {recordLabel(record)}
        {record.source ? ` · ${translate(`tg.sources.${record.source}`, { _: record.source })}` : ''}
      </Typography>
      <Table size="small" aria-label={translate('logs.audit.changes_table')}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('logs.audit.field')}</TableCell>
            <TableCell>{translate('logs.audit.before')}</TableCell>
            <TableCell>{translate('logs.audit.after')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {keys.map((key) => {
            const isChanged = record.before === null ? false : changed.has(key);
            return (
              <TableRow
                key={key}
                sx={isChanged ? { bgcolor: (theme) => alpha(theme.palette.warning.main, 0.16) } : undefined}
              >
                <TableCell sx={{ fontWeight: isChanged ? 700 : 400 }}>{key}</TableCell>
                <TableCell sx={{ fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all' }}>
                  {record.before === null ? '—' : cell(before[key])}
                </TableCell>
                <TableCell sx={{ fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all' }}>
                  {cell(after[key])}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </Box>
  );
}

export function AuditList() {
  const translate = useTranslate();
  const canListOperators = useCan('operators.view');
  const operatorName = useRecordName('operator');
  return (
    <List
      filters={auditFilters(canListOperators, translate)}
      actions={false}
      perPage={50}
      exporter={false}
      sort={{ field: 'at', order: 'DESC' }}
      pagination={<Pagination rowsPerPageOptions={[25, 50, 100]} />}
    >
      <Datagrid expand={<AuditChanges />} bulkActionButtons={false} rowClick="expand">
        <DateTimeField source="at" sortable={false} />
        <FunctionField
          source="username"
          sortable={false}
          render={(entry: AuditEntry) =>
            entry.username ??
            (entry.source ? translate(`tg.sources.${entry.source}`, { _: entry.source }) : (entry.actor ?? '—'))
          }
        />
        <FunctionField
          label="logs.audit.what"
          sortable={false}
          render={(entry: AuditEntry) => (
            <span data-type={entry.type}>{auditSentence(entry, translate, operatorName)}</span>
          )}
        />
        <FunctionField label="logs.audit.record" sortable={false} render={(entry: AuditEntry) => recordLabel(entry)} />
        <TextField source="ip" sortable={false} emptyText="—" />
      </Datagrid>
    </List>
  );
}

export const auditResource = {
  name: 'audit',
  list: AuditList,
  icon: HistoryIcon,
  options: { label: 'resources.audit.name' },
};
