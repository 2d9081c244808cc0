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
function auditFilters(canListOperators: boolean) {
  return [
    canListOperators ? (
      <ReferenceInput key="operatorId" source="operatorId" reference="operators" alwaysOn>
        <SelectInput optionText="username" label="resources.audit.fields.operatorId" />
      </ReferenceInput>
    ) : (
      <TextInput key="operatorId" source="operatorId" label="resources.audit.fields.operatorId" alwaysOn />
    ),
    <TextInput
      key="type"
      source="type"
      label="resources.audit.fields.type"
      helperText="logs.audit.type_help"
      alwaysOn
    />,
    <DateInput key="from" source="from" label="logs.audit.from" alwaysOn />,
    <DateInput key="to" source="to" label="logs.audit.to" alwaysOn />,
  ];
}

/** Stream names end in UUIDs or hashes: the first 8 characters tell them apart in a list. */
function shortStream(stream: string): string {
  return stream.replace(/[0-9a-f]{8}(?:-?[0-9a-f]{4,}){1,}/gi, (id) => `${id.slice(0, 8)}…`);
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
        {record.stream} · v{record.streamVersion}
        {record.source ? ` · ${record.source}` : ''}
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
  return (
    <List
      filters={auditFilters(canListOperators)}
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
          render={(entry: AuditEntry) => entry.username ?? entry.actor ?? entry.source ?? '—'}
        />
        <TextField source="type" sortable={false} />
        <FunctionField
          source="stream"
          sortable={false}
          render={(entry: AuditEntry) => <span title={entry.stream}>{shortStream(entry.stream)}</span>}
        />
        <TextField source="ip" sortable={false} emptyText="—" />
        <FunctionField
          source="changes"
          sortable={false}
          render={(entry: AuditEntry) =>
            entry.changes === null
              ? '—'
              : entry.before === null
                ? translate('logs.audit.created')
                : entry.changes.join(', ') || '—'
          }
        />
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
