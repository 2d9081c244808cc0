import {
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemText,
  TextField,
} from '@mui/material';
import { useId, useState } from 'react';
import { useListContext, usePermissions, useRefresh, useStore, useTranslate, useUnselectAll } from 'react-admin';
import { panelFetch } from '../../api/http';
import { can } from '../../auth/auth-provider';
import { formatTry } from '../../format/money';
import { explainLostRace } from './decision-race';
import { REJECT_PRESETS } from './reject-presets';
import { ACTION_PATHS } from './transaction-actions';
import { OPEN_STATES, type PanelTransaction } from './types';

/**
 * The last bulk run's per-item results. Kept in react-admin's store and shown by BulkResults,
 * which sits outside the datagrid: the bulk toolbar unmounts when the decided rows leave the list.
 */
function useBulkResults(type: PanelTransaction['type']) {
  return useStore<ItemResult[] | null>(`tg.bulk-results.${type}`, null);
}

/** Requests in flight at once: enough to be quick, few enough not to crowd the ledger. */
const BULK_PARALLELISM = 4;

interface ItemResult {
  number: number;
  ok: boolean;
  text: string;
}

/** Runs `work` over the items, at most `parallelism` at a time, keeping the items' order in the answer. */
async function eachLimited<T, R>(items: T[], parallelism: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallelism, items.length) }, lane));
  return results;
}

/**
 * Approve or reject the selected rows with one confirmation. Each item is its own request to the
 * same route as the row button (so the ledger decides each one alone: a row another operator decided
 * meanwhile fails by itself and says who decided it), and the result lists every item.
 */
export function BulkDecisionButtons({ type }: { type: PanelTransaction['type'] }) {
  const translate = useTranslate();
  const refresh = useRefresh();
  const { permissions } = usePermissions();
  const { selectedIds, data } = useListContext<PanelTransaction>();
  const reasonId = useId();
  const [action, setAction] = useState<'approve' | 'reject' | null>(null);
  const [reason, setReason] = useState('');
  const [running, setRunning] = useState(false);
  const [, setResults] = useBulkResults(type);

  const selectable = (data ?? []).filter(
    (record) => selectedIds.includes(record.id) && OPEN_STATES[type].includes(record.state),
  );
  // What the operator confirms is what was selected when the dialog opened, even if the list's
  // next poll drops a row someone else decided meanwhile (that row then reports who decided it).
  const [snapshot, setSnapshot] = useState<PanelTransaction[]>([]);
  const selected = action ? snapshot : selectable;
  const open = (next: 'approve' | 'reject') => {
    setSnapshot(selectable);
    setAction(next);
  };
  const total = selected.reduce((sum, record) => sum + Math.round(record.amount * 100), 0) / 100;

  const run = async () => {
    if (!action || running || (action === 'reject' && !reason.trim())) return;
    setRunning(true);
    const outcome = await eachLimited(selected, BULK_PARALLELISM, async (record): Promise<ItemResult> => {
      try {
        await panelFetch(ACTION_PATHS[action](type), {
          method: 'POST',
          body: action === 'approve' ? { id: record.id } : { id: record.id, reason: reason.trim() },
        });
        return { number: record.number, ok: true, text: translate(`tg.tx.done.${action}`, { number: record.number }) };
      } catch (error) {
        const race = await explainLostRace(record, error, translate);
        return {
          number: record.number,
          ok: false,
          text: race ?? `#${record.number}: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
    });
    setRunning(false);
    setAction(null);
    setReason('');
    setResults(outcome);
    refresh();
  };

  const mayApprove = can(permissions, 'transactions.approve');
  const mayReject = can(permissions, 'transactions.reject');
  return (
    <>
      {mayApprove ? (
        <Button size="small" color="success" disabled={selected.length === 0} onClick={() => open('approve')}>
          {translate('tg.bulk.approve')}
        </Button>
      ) : null}
      {mayReject ? (
        <Button size="small" color="error" disabled={selected.length === 0} onClick={() => open('reject')}>
          {translate('tg.bulk.reject')}
        </Button>
      ) : null}
      <Dialog open={action !== null} onClose={running ? undefined : () => setAction(null)} maxWidth="sm" fullWidth>
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void run();
          }}
        >
          <DialogTitle>
            {translate(action === 'reject' ? 'tg.bulk.reject_title' : 'tg.bulk.approve_title', {
              smart_count: selected.length,
            })}
          </DialogTitle>
          <DialogContent>
            <Box data-testid="bulk-summary" sx={{ mb: 2, fontSize: '1.1rem' }}>
              {translate('tg.bulk.summary', {
                count: selected.length,
                total: formatTry(total),
                numbers: selected.map((record) => `#${record.number}`).join(', '),
              })}
            </Box>
            {action === 'reject' ? (
              <>
                <Box
                  role="group"
                  aria-label={translate('tg.reject.preset')}
                  sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 2 }}
                >
                  {REJECT_PRESETS[type].map((key) => {
                    const text = translate(`tg.reject.presets.${key}`);
                    return (
                      <Chip
                        key={key}
                        label={text}
                        variant={reason === text ? 'filled' : 'outlined'}
                        color={reason === text ? 'primary' : 'default'}
                        onClick={() => setReason(text)}
                      />
                    );
                  })}
                </Box>
                <TextField
                  id={reasonId}
                  label={translate('tg.tx.dialog.reason')}
                  value={reason}
                  onChange={(event) => setReason(event.target.value)}
                  slotProps={{ htmlInput: { maxLength: 500 } }}
                  fullWidth
                  required
                />
              </>
            ) : null}
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setAction(null)} disabled={running}>
              {translate('ra.action.cancel')}
            </Button>
            <Button
              type="submit"
              variant="contained"
              color={action === 'reject' ? 'error' : 'success'}
              disabled={running || (action === 'reject' && !reason.trim())}
              startIcon={running ? <CircularProgress size={16} /> : undefined}
            >
              {translate(action === 'reject' ? 'tg.tx.action.reject' : 'tg.tx.action.approve')}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}

/** The result of the last bulk decision, item by item; closing it clears the selection. */
export function BulkResults({ type, storeKey }: { type: PanelTransaction['type']; storeKey: string }) {
  const translate = useTranslate();
  const { resource } = useListContext<PanelTransaction>();
  // The selection lives under the list's storeKey, so that is what clears it.
  const unselectAll = useUnselectAll(resource, storeKey);
  const [results, setResults] = useBulkResults(type);
  const closeResults = () => {
    setResults(null);
    unselectAll();
  };
  return (
    <Dialog open={results !== null} onClose={closeResults} maxWidth="sm" fullWidth>
      <DialogTitle>
        {translate('tg.bulk.result_title')}:{' '}
        {translate('tg.bulk.done', {
          ok: results?.filter((result) => result.ok).length ?? 0,
          count: results?.length ?? 0,
        })}
      </DialogTitle>
      <DialogContent>
        <List dense data-testid="bulk-results">
          {(results ?? []).map((result) => (
            <ListItem key={result.number} data-ok={result.ok}>
              <ListItemText
                primary={result.text}
                slotProps={{ primary: { color: result.ok ? 'success.main' : 'error.main' } }}
              />
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={closeResults} autoFocus>
          {translate('tg.bulk.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
