import {
  Box,
  Button,
  Card,
  CardContent,
  Grid,
  Link,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useCallback } from 'react';
import { ShowBase, useNotify, usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { HttpError } from 'react-admin';
import type { PanelCallbackDetail } from '@transfergate/contracts/panel';
import { panelFetch } from '../../api/http';
import { formatTry } from '../../format/money';
import { can } from '../../auth/auth-provider';
import { IbanWithCopy, paymentReference } from './approve-checks';
import { DateTime, Money, RecordName, StateChip } from './fields';
import { TransactionActions } from './transaction-actions';
import type { PanelTransactionDetail } from './types';
import { useSingleFlight } from './use-single-flight';

const DETAIL_REFRESH_MS = 5_000;
/** Operator ids are UUIDs; any other actor is a source (`gateway`, `customer`, `webhook` …). */
const OPERATOR_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function Facts({ record }: { record: PanelTransactionDetail }) {
  const translate = useTranslate();
  const rows: Array<[string, React.ReactNode]> = [
    ['tg.tx.fields.type', translate(`tg.tx.type.${record.type}`)],
    ['tg.tx.fields.state', <StateChip key="s" state={record.state} />],
    ['tg.tx.fields.amount', <Money key="a" amount={record.amount} />],
    ['tg.tx.fields.original_amount', <Money key="o" amount={record.originalAmount} />],
    ['tg.tx.fields.fee', <Money key="f" amount={record.fee} />],
    ['tg.tx.fields.customer', record.customer.fullName],
    ['tg.tx.fields.customer_username', record.customer.username ?? '—'],
    ['tg.tx.fields.external_id', record.externalId],
    ['tg.tx.fields.merchant', <RecordName key="m" kind="merchant" id={record.merchantId} />],
    ['tg.tx.fields.provider', <RecordName key="p" kind="provider" id={record.providerId} />],
    ['tg.tx.fields.form', translate(`tg.forms.${record.form}`, { _: record.form })],
    [
      record.type === 'withdrawal' ? 'tg.tx.fields.iban' : 'tg.tx.fields.bank_account',
      record.type === 'withdrawal' ? (
        record.iban ? (
          <IbanWithCopy key="ib" iban={record.iban} />
        ) : (
          '—'
        )
      ) : record.bankAccount ? (
        <span key="ba">
          {record.bankAccount.bank} · <IbanWithCopy iban={record.bankAccount.iban} /> · {record.bankAccount.holderName}
        </span>
      ) : (
        '—'
      ),
    ],
    ...(record.type === 'deposit'
      ? ([['tg.check.reference', paymentReference(record.number)]] as Array<[string, React.ReactNode]>)
      : []),

    ['tg.tx.fields.assignee', <RecordName key="as" kind="operator" id={record.assignee} />],
    ['tg.tx.fields.reason', record.reason ?? '—'],
    ['tg.tx.fields.created_at', <DateTime key="c" iso={record.createdAt} />],
    ['tg.tx.fields.updated_at', <DateTime key="u" iso={record.updatedAt} />],
    ['tg.tx.fields.expires_at', <DateTime key="e" iso={record.expiresAt} />],
  ];
  return (
    <Table size="small" aria-label={translate('tg.tx.detail', { number: record.number })}>
      <TableBody>
        {rows.map(([label, value]) => (
          <TableRow key={label}>
            <TableCell component="th" scope="row" sx={{ width: '40%', color: 'text.secondary' }}>
              {translate(label)}
            </TableCell>
            <TableCell>{value}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function History({ record }: { record: PanelTransactionDetail }) {
  const translate = useTranslate();
  return (
    <Table size="small" aria-label={translate('tg.tx.history')} data-testid="event-history">
      <TableHead>
        <TableRow>
          <TableCell>#</TableCell>
          <TableCell>{translate('tg.tx.event')}</TableCell>
          <TableCell>{translate('tg.tx.at')}</TableCell>
          <TableCell>{translate('tg.tx.actor')}</TableCell>
          <TableCell>{translate('tg.tx.data')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {/* The list's row stands in (without history) until the detail arrives. */}
        {(record.history ?? []).map((event) => (
          <TableRow key={event.version} data-event-type={event.type}>
            <TableCell>{event.version}</TableCell>
            <TableCell>{translate(`tg.events.${event.type}`, { _: event.type })}</TableCell>
            <TableCell>
              <DateTime iso={event.createdAt} />
            </TableCell>
            <TableCell>
              {event.metadata.actorName ? (
                event.metadata.actorName
              ) : event.metadata.actor && OPERATOR_ID.test(event.metadata.actor) ? (
                <RecordName kind="operator" id={event.metadata.actor} />
              ) : event.metadata.source || event.metadata.actor ? (
                translate(`tg.sources.${event.metadata.source ?? event.metadata.actor}`, {
                  _: event.metadata.source ?? event.metadata.actor,
                })
              ) : (
                '—'
              )}
            </TableCell>
            <TableCell sx={{ width: '45%' }}>
              {/* Folded: a request event carries a screenful of fields. <details> is keyboard-usable as is. */}
              <details>
                <summary style={{ cursor: 'pointer' }}>
                  {translate('tg.tx.data_fields', { smart_count: Object.keys(event.data).length })}
                </summary>
                <Box
                  component="pre"
                  sx={{
                    fontSize: 12,
                    whiteSpace: 'pre-wrap',
                    wordBreak: 'break-all',
                    maxHeight: 320,
                    overflow: 'auto',
                    m: 0,
                  }}
                >
                  {JSON.stringify(event.data, null, 2)}
                </Box>
              </details>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function Callbacks({ record }: { record: PanelTransactionDetail }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { permissions } = usePermissions();
  const queryClient = useQueryClient();
  const { data, isPending } = useQuery({
    queryKey: ['transaction-callback', record.id],
    refetchInterval: DETAIL_REFRESH_MS,
    queryFn: async () => {
      try {
        return await panelFetch<PanelCallbackDetail>(`/panel/callbacks/${record.id}`);
      } catch (error) {
        // No delivery yet (the transaction is not final): a state, not an error.
        if (error instanceof HttpError && error.status === 404) return null;
        throw error;
      }
    },
  });
  const resend = useCallback(async () => {
    try {
      await panelFetch('/panel/callbacks/resend', { method: 'POST', body: { id: record.id } });
      notify('tg.tx.done.resend', { type: 'success' });
      await queryClient.invalidateQueries({ queryKey: ['transaction-callback', record.id] });
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    }
  }, [record.id, notify, queryClient]);
  const { run, pending } = useSingleFlight(resend);

  if (isPending) return null;
  if (!data) return <Typography color="text.secondary">{translate('tg.tx.no_callback')}</Typography>;
  return (
    <Box data-testid="callback-delivery" data-state={data.state}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 1, gap: 2 }}>
        <Typography>
          {translate('tg.tx.callback_state', {
            state: translate(`logs.states.${data.state}`, { _: data.state }),
            count: data.attemptCount,
            url: data.targetUrl,
          })}
        </Typography>
        {can(permissions, 'callbacks.resend') ? (
          <Button variant="outlined" onClick={() => void run()} disabled={pending}>
            {translate('tg.tx.resend')}
          </Button>
        ) : null}
      </Box>
      <Table size="small" aria-label={translate('tg.tx.callbacks')}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('tg.tx.attempt')}</TableCell>
            <TableCell>{translate('tg.tx.at')}</TableCell>
            <TableCell>{translate('tg.tx.trigger')}</TableCell>
            <TableCell>{translate('tg.tx.status_code')}</TableCell>
            <TableCell>{translate('tg.tx.outcome')}</TableCell>
            <TableCell>{translate('tg.tx.latency')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {data.attempts.map((attempt) => (
            <TableRow key={attempt.number} data-outcome={attempt.outcome}>
              <TableCell>{attempt.number}</TableCell>
              <TableCell>
                <DateTime iso={attempt.startedAt} />
              </TableCell>
              <TableCell>
                {translate(`logs.triggers.${attempt.trigger}`, { _: attempt.trigger })}
                {attempt.requestedBy ? ` (${attempt.requestedBy})` : ''}
              </TableCell>
              <TableCell>{attempt.statusCode ?? '—'}</TableCell>
              <TableCell>
                {translate(`logs.states.${attempt.outcome}`, { _: attempt.outcome })}
                {attempt.error ? `: ${attempt.error}` : ''}
              </TableCell>
              <TableCell>{attempt.latencyMs ?? '—'}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

function Detail() {
  const record = useRecordContext<PanelTransactionDetail>();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Box sx={{ mt: 2 }} data-testid="transaction-detail">
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 2, gap: 2 }}>
        <Typography variant="h5" component="h1">
          {translate('tg.tx.detail', { number: record.number })}
        </Typography>
        <TransactionActions record={record} />
      </Box>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 5 }}>
          <Card>
            <CardContent>
              <Facts record={record} />
            </CardContent>
          </Card>
        </Grid>
        <Grid size={{ xs: 12, md: 7 }}>
          <Card>
            <CardContent>
              <Typography variant="h6" component="h2" gutterBottom>
                {translate('tg.tx.callbacks')}
              </Typography>
              <Callbacks record={record} />
            </CardContent>
          </Card>
        </Grid>
        <Grid size={12}>
          <Card>
            <CardContent>
              <Typography variant="h6" component="h2" gutterBottom>
                {translate('tg.tx.history')}
              </Typography>
              {record.paidBy ? (
                <Typography sx={{ mb: 1 }}>
                  <Link href={`#/reconciliation?line=${record.paidBy.lineId}`} data-testid="paid-by-line">
                    {translate('recon.paid_by', {
                      reference: record.paidBy.bankReference ?? '—',
                      amount: formatTry(record.paidBy.amount),
                      day: record.paidBy.bookedOn.split('-').reverse().join('.'),
                    })}
                  </Link>
                </Typography>
              ) : null}
              <History record={record} />
            </CardContent>
          </Card>
        </Grid>
      </Grid>
    </Box>
  );
}

/** One transaction: its facts, the actions still open, its event history and its callback. */
export function TransactionShow() {
  return (
    <ShowBase queryOptions={{ refetchInterval: DETAIL_REFRESH_MS }}>
      <Detail />
    </ShowBase>
  );
}
