import FactCheckIcon from '@mui/icons-material/FactCheck';
import { Alert, Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { Title, useGetIdentity, useNotify, useTranslate } from 'react-admin';
import { panelFetch } from '../../api/http';
import { formatTry } from '../../format/money';
import { formatDateTime } from '../../format/time';
import type { PanelResource } from '../types';
import { ActionDialog } from './action-dialog';
import { paymentReference } from './approve-checks';
import type { PanelTransaction } from './types';
import { useSingleFlight } from './use-single-flight';

type Waiting = PanelTransaction & { pendingAmountChange: NonNullable<PanelTransaction['pendingAmountChange']> };

/**
 * Four eyes: the amount changes that wait for a second admin (GET /panel/amount-changes), each with
 * what it changes and who asked. Another admin approves or rejects it (with a reason); the admin
 * who asked sees it without the buttons (the API refuses them anyway).
 */
export function AmountChangesPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const { identity } = useGetIdentity();
  const [items, setItems] = useState<Waiting[] | null>(null);
  const [open, setOpen] = useState<{ action: 'approve' | 'reject'; item: Waiting } | null>(null);

  const load = useCallback(async () => {
    const answer = await panelFetch<{ items: Waiting[] }>('/panel/amount-changes');
    setItems(answer.items);
  }, []);
  useEffect(() => {
    load().catch((error: unknown) => notify(error instanceof Error ? error.message : String(error), { type: 'error' }));
  }, [load, notify]);

  const decide = useCallback(
    async (reason: string) => {
      if (!open) return;
      const { action, item } = open;
      try {
        const answer = await panelFetch<PanelTransaction>(`/panel/amount-changes/${action}`, {
          method: 'POST',
          body: {
            id: item.id,
            requestId: item.pendingAmountChange.requestId,
            ...(action === 'reject' ? { reason } : {}),
          },
        });
        notify(action === 'approve' ? 'tg.four_eyes.approved' : 'tg.four_eyes.rejected', {
          type: 'success',
          messageArgs: { number: item.number, amount: formatTry(answer.amount) },
        });
      } catch (error) {
        notify(error instanceof Error ? error.message : String(error), { type: 'error' });
      }
      setOpen(null);
      await load().catch(() => undefined);
    },
    [open, notify, load],
  );
  const { run, pending } = useSingleFlight(decide);

  const nameOf = (item: Waiting) => item.pendingAmountChange.requestedByName ?? item.pendingAmountChange.requestedBy;
  const summary = (item: Waiting) =>
    translate('tg.four_eyes.summary', {
      old: formatTry(item.pendingAmountChange.fromAmount),
      new: formatTry(item.pendingAmountChange.toAmount),
      customer: item.customer.fullName,
      operator: nameOf(item),
    });

  return (
    <Box sx={{ mt: 1, maxWidth: '100%' }}>
      <Title title={translate('tg.four_eyes.title')} />
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {translate('tg.four_eyes.title')}
      </Typography>
      {items !== null && items.length === 0 ? <Alert severity="info">{translate('tg.four_eyes.empty')}</Alert> : null}
      <Stack spacing={1}>
        {(items ?? []).map((item) => {
          const change = item.pendingAmountChange;
          const mine = identity?.id !== undefined && change.requestedBy === identity.id;
          return (
            <Card key={change.requestId} data-testid="amount-change" variant="outlined">
              <CardContent>
                <Typography variant="subtitle1" component="h3">
                  {translate(`tg.tx.type.${item.type}`)} #{item.number} · {paymentReference(item.number)} ·{' '}
                  {item.customer.fullName}
                </Typography>
                <Typography data-testid="amount-change-summary" sx={{ fontSize: '1.15rem', fontWeight: 500 }}>
                  {formatTry(change.fromAmount)} → {formatTry(change.toAmount)}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {translate('tg.four_eyes.requested_amount')}: {formatTry(item.originalAmount)} ·{' '}
                  {translate('tg.four_eyes.asked_by')}: {nameOf(item)} · {translate('tg.four_eyes.asked_at')}:{' '}
                  {formatDateTime(change.requestedAt)}
                  {change.lineId ? ` · ${translate('tg.four_eyes.from_line')}` : ''}
                </Typography>
                {mine ? (
                  <Typography variant="body2" color="warning.main" sx={{ mt: 1 }}>
                    {translate('tg.four_eyes.yours')}
                  </Typography>
                ) : (
                  <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1, mt: 1 }}>
                    <Button variant="contained" color="success" onClick={() => setOpen({ action: 'approve', item })}>
                      {translate('tg.four_eyes.approve')}
                    </Button>
                    <Button variant="outlined" color="error" onClick={() => setOpen({ action: 'reject', item })}>
                      {translate('tg.four_eyes.reject')}
                    </Button>
                  </Stack>
                )}
              </CardContent>
            </Card>
          );
        })}
      </Stack>
      {open ? (
        <ActionDialog
          open
          title={translate(`tg.four_eyes.${open.action}_title`, { number: open.item.number })}
          summary={() => summary(open.item)}
          confirmLabel={translate(`tg.four_eyes.${open.action}`)}
          confirmColor={open.action === 'approve' ? 'success' : 'error'}
          {...(open.action === 'reject'
            ? {
                field: {
                  label: translate('tg.tx.dialog.reason'),
                  validate: (text: string) => (text.trim() ? null : translate('ra.validation.required')),
                },
              }
            : {})}
          pending={pending}
          onConfirm={(value) => void run(value)}
          onClose={() => setOpen(null)}
        />
      ) : null}
    </Box>
  );
}

/** The four-eyes queue as its own screen (no react-admin data provider). */
export const amountChangesResource: PanelResource = {
  name: 'amount-changes',
  list: AmountChangesPage,
  icon: FactCheckIcon,
  options: { label: 'tg.four_eyes.menu' },
};
