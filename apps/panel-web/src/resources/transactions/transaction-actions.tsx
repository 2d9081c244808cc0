import AssignmentIndIcon from '@mui/icons-material/AssignmentInd';
import EditIcon from '@mui/icons-material/Edit';
import { Button, IconButton, Stack, Tooltip } from '@mui/material';
import { useCallback, useState } from 'react';
import { useGetIdentity, useNotify, usePermissions, useRefresh, useTranslate } from 'react-admin';
import { panelFetch } from '../../api/http';
import { can } from '../../auth/auth-provider';
import { formatTry, parseLiraInput } from '../../format/money';
import { ActionDialog } from './action-dialog';
import { ApproveChecks } from './approve-checks';
import { explainLostRace } from './decision-race';
import { useRecordChoices, useRecordName } from './record-names';
import { REJECT_PRESETS } from './reject-presets';
import { HELD_STATE, OPEN_STATES, type PanelTransaction } from './types';
import { useSingleFlight } from './use-single-flight';

type Action = 'approve' | 'reject' | 'assign' | 'amount' | 'release';

/** The API route of a queue action (bulk actions use the same routes, one request per item). */
export const ACTION_PATHS: Record<Action, (type: PanelTransaction['type']) => string> = {
  approve: (type) => `/panel/${type}/approve`,
  reject: (type) => `/panel/${type}/reject`,
  assign: (type) => `/panel/${type}/assign`,
  amount: (type) => `/panel/${type}/update-amount`,
  release: (type) => `/panel/${type}/release`,
};

/**
 * The queue's actions on one transaction, each behind its confirmation dialog. A button is shown
 * only when the operator holds its permission and the transaction is still open.
 */
export function TransactionActions({ record, compact = false }: { record: PanelTransaction; compact?: boolean }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const { permissions } = usePermissions();
  const { identity } = useGetIdentity();
  const nameOf = useRecordName('operator');
  const operatorChoices = useRecordChoices('operator');
  const [open, setOpen] = useState<Action | null>(null);

  const isOpen = OPEN_STATES[record.type].includes(record.state);
  const expiredDeposit = record.type === 'deposit' && record.state === 'expired';
  // Held by a risk rule: released (risk.review) or rejected, never approved from the risk queue.
  const held = record.state === HELD_STATE;
  const allowed: Record<Action, boolean> = {
    approve:
      (isOpen && can(permissions, 'transactions.approve')) ||
      (expiredDeposit && can(permissions, 'transactions.approve_expired')),
    reject: (isOpen || held) && can(permissions, 'transactions.reject'),
    release: held && can(permissions, 'risk.review'),
    assign: isOpen && record.type === 'withdrawal' && can(permissions, 'transactions.assign'),
    amount: isOpen && can(permissions, 'transactions.update'),
  };

  const typeLabel = translate(`tg.tx.type.${record.type}`);
  const customer = record.customer.fullName;
  const summary = translate('tg.tx.dialog.summary', { amount: formatTry(record.amount), customer });

  const perform = useCallback(
    async (value: string) => {
      if (!open) return;
      const body: Record<Action, () => unknown> = {
        approve: () => ({ id: record.id }),
        reject: () => ({ id: record.id, reason: value }),
        assign: () => ({ id: record.id, assignee: value }),
        amount: () => ({ id: record.id, amount: parseLiraInput(value) }),
        release: () => ({ id: record.id }),
      };
      try {
        const answer = await panelFetch<PanelTransaction>(ACTION_PATHS[open](record.type), {
          method: 'POST',
          body: body[open](),
        });
        // An amount change beyond the four-eyes limits is asked for, not made (202).
        const waiting = open === 'amount' && answer?.pendingAmountChange !== undefined;
        notify(waiting ? 'tg.four_eyes.waiting' : `tg.tx.done.${open}`, {
          type: waiting ? 'info' : 'success',
          messageArgs: { number: record.number },
        });
        setOpen(null);
        refresh();
      } catch (error) {
        // Another operator decided first: close the dialog and say who decided what.
        const race = await explainLostRace(record, error, translate);
        if (race) {
          notify(race, { type: 'warning', autoHideDuration: 15_000 });
          setOpen(null);
          refresh();
          return;
        }
        notify(error instanceof Error ? error.message : String(error), { type: 'error' });
      }
    },
    [open, record, notify, refresh, translate],
  );
  const { run, pending } = useSingleFlight(perform);

  if (!Object.values(allowed).some(Boolean)) return null;
  const size = compact ? 'small' : 'medium';
  // Row buttons sit inside a clickable row: keep their clicks to themselves.
  const openDialog = (action: Action) => (event: React.MouseEvent) => {
    event.stopPropagation();
    setOpen(action);
  };
  const required = (text: string) => (text.trim() ? null : translate('ra.validation.required'));

  return (
    <Stack
      direction="row"
      useFlexGap
      // In a queue row the buttons stay on one line (secondary actions as labelled icons).
      sx={{ flexWrap: compact ? 'nowrap' : 'wrap', gap: 0.5, alignItems: 'center' }}
      onClick={(event) => event.stopPropagation()}
    >
      {allowed.approve ? (
        <Button size={size} variant="contained" color="success" onClick={openDialog('approve')}>
          {translate('tg.tx.action.approve')}
        </Button>
      ) : null}
      {allowed.release ? (
        <Button size={size} variant="contained" color="warning" onClick={openDialog('release')}>
          {translate('tg.tx.action.release')}
        </Button>
      ) : null}
      {allowed.reject ? (
        <Button size={size} variant="outlined" color="error" onClick={openDialog('reject')}>
          {translate('tg.tx.action.reject')}
        </Button>
      ) : null}
      {allowed.assign ? (
        compact ? (
          <Tooltip title={translate('tg.tx.action.assign')}>
            <IconButton size="small" aria-label={translate('tg.tx.action.assign')} onClick={openDialog('assign')}>
              <AssignmentIndIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        ) : (
          <Button size={size} variant="outlined" onClick={openDialog('assign')}>
            {translate('tg.tx.action.assign')}
          </Button>
        )
      ) : null}
      {allowed.amount ? (
        compact ? (
          <Tooltip title={translate('tg.tx.action.edit_amount')}>
            <IconButton size="small" aria-label={translate('tg.tx.action.edit_amount')} onClick={openDialog('amount')}>
              <EditIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        ) : (
          <Button size={size} variant="text" onClick={openDialog('amount')}>
            {translate('tg.tx.action.edit_amount')}
          </Button>
        )
      ) : null}

      <ActionDialog
        open={open === 'approve'}
        title={translate('tg.tx.dialog.approve_title', { type: typeLabel, number: record.number })}
        summary={() => summary}
        details={<ApproveChecks record={record} />}
        confirmLabel={translate('tg.tx.action.approve')}
        confirmColor="success"
        pending={pending}
        onConfirm={(value) => void run(value)}
        onClose={() => setOpen(null)}
      />
      <ActionDialog
        open={open === 'release'}
        title={translate('tg.tx.dialog.release_title', { type: typeLabel, number: record.number })}
        summary={() => summary}
        confirmLabel={translate('tg.tx.action.release')}
        confirmColor="warning"
        pending={pending}
        onConfirm={(value) => void run(value)}
        onClose={() => setOpen(null)}
      />
      <ActionDialog
        open={open === 'reject'}
        title={translate('tg.tx.dialog.reject_title', { type: typeLabel, number: record.number })}
        summary={() => summary}
        confirmLabel={translate('tg.tx.action.reject')}
        confirmColor="error"
        field={{
          label: translate('tg.tx.dialog.reason'),
          validate: required,
          presets: {
            label: translate('tg.reject.preset'),
            options: REJECT_PRESETS[record.type].map((key) => translate(`tg.reject.presets.${key}`)),
          },
        }}
        pending={pending}
        onConfirm={(value) => void run(value)}
        onClose={() => setOpen(null)}
      />
      <ActionDialog
        open={open === 'assign'}
        title={translate('tg.tx.dialog.assign_title', { number: record.number })}
        summary={() => summary}
        confirmLabel={translate('tg.tx.action.assign')}
        field={{
          label: translate('tg.tx.dialog.assignee'),
          initial: nameOf(record.assignee) ?? (typeof identity?.fullName === 'string' ? identity.fullName : ''),
          validate: required,
          // A picker of operators when the operator may list them; a name can still be typed.
          ...(operatorChoices ? { options: operatorChoices.map((choice) => choice.name) } : {}),
        }}
        pending={pending}
        onConfirm={(value) => void run(value)}
        onClose={() => setOpen(null)}
      />
      <ActionDialog
        open={open === 'amount'}
        title={translate('tg.tx.dialog.amount_title', { number: record.number })}
        summary={(value) => {
          const next = parseLiraInput(value);
          return translate('tg.tx.dialog.amount_change', {
            old: formatTry(record.amount),
            new: next ? formatTry(next) : '…',
            customer,
          });
        }}
        confirmLabel={translate('ra.action.save')}
        field={{
          label: translate('tg.tx.dialog.new_amount'),
          initial: String(record.amount).replace('.', ','),
          inputMode: 'decimal',
          validate: (text) => (parseLiraInput(text) ? null : translate('tg.tx.dialog.invalid_amount')),
        }}
        pending={pending}
        onConfirm={(value) => void run(value)}
        onClose={() => setOpen(null)}
      />
    </Stack>
  );
}
