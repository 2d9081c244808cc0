import { Button, Stack } from '@mui/material';
import { useCallback, useState } from 'react';
import { useGetIdentity, useNotify, usePermissions, useRefresh, useTranslate } from 'react-admin';
import { panelFetch } from '../../api/http';
import { can } from '../../auth/auth-provider';
import { formatTry, parseLiraInput } from '../../format/money';
import { ActionDialog } from './action-dialog';
import { useRecordName } from './record-names';
import { OPEN_STATES, type PanelTransaction } from './types';
import { useSingleFlight } from './use-single-flight';

type Action = 'approve' | 'reject' | 'assign' | 'amount';

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
  const [open, setOpen] = useState<Action | null>(null);

  const isOpen = OPEN_STATES[record.type].includes(record.state);
  const expiredDeposit = record.type === 'deposit' && record.state === 'expired';
  const allowed: Record<Action, boolean> = {
    approve:
      (isOpen && can(permissions, 'transactions.approve')) ||
      (expiredDeposit && can(permissions, 'transactions.approve_expired')),
    reject: isOpen && can(permissions, 'transactions.reject'),
    assign: isOpen && record.type === 'withdrawal' && can(permissions, 'transactions.assign'),
    amount: isOpen && can(permissions, 'transactions.update'),
  };

  const typeLabel = translate(`tg.tx.type.${record.type}`);
  const customer = record.customer.fullName;
  const summary = translate('tg.tx.dialog.summary', { amount: formatTry(record.amount), customer });

  const perform = useCallback(
    async (value: string) => {
      if (!open) return;
      const path: Record<Action, string> = {
        approve: `/panel/${record.type}/approve`,
        reject: `/panel/${record.type}/reject`,
        assign: `/panel/${record.type}/assign`,
        amount: `/panel/${record.type}/update-amount`,
      };
      const body: Record<Action, () => unknown> = {
        approve: () => ({ id: record.id }),
        reject: () => ({ id: record.id, reason: value }),
        assign: () => ({ id: record.id, assignee: value }),
        amount: () => ({ id: record.id, amount: parseLiraInput(value) }),
      };
      try {
        await panelFetch(path[open], { method: 'POST', body: body[open]() });
        notify(`tg.tx.done.${open}`, { type: 'success', messageArgs: { number: record.number } });
        setOpen(null);
        refresh();
      } catch (error) {
        notify(error instanceof Error ? error.message : String(error), { type: 'error' });
      }
    },
    [open, record, notify, refresh],
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
      sx={{ flexWrap: 'wrap', gap: 0.5, minWidth: compact ? 200 : undefined }}
      onClick={(event) => event.stopPropagation()}
    >
      {allowed.approve ? (
        <Button size={size} variant="contained" color="success" onClick={openDialog('approve')}>
          {translate('tg.tx.action.approve')}
        </Button>
      ) : null}
      {allowed.reject ? (
        <Button size={size} variant="outlined" color="error" onClick={openDialog('reject')}>
          {translate('tg.tx.action.reject')}
        </Button>
      ) : null}
      {allowed.assign ? (
        <Button size={size} variant="outlined" onClick={openDialog('assign')}>
          {translate('tg.tx.action.assign')}
        </Button>
      ) : null}
      {allowed.amount ? (
        <Button size={size} variant="text" onClick={openDialog('amount')}>
          {translate('tg.tx.action.edit_amount')}
        </Button>
      ) : null}

      <ActionDialog
        open={open === 'approve'}
        title={translate('tg.tx.dialog.approve_title', { type: typeLabel, number: record.number })}
        summary={() => summary}
        confirmLabel={translate('tg.tx.action.approve')}
        confirmColor="success"
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
        field={{ label: translate('tg.tx.dialog.reason'), validate: required }}
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
