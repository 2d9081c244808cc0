import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Title, useTranslate } from 'react-admin';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { panelFetch } from '../api/http';
import { formatTry } from '../format/money';
import { formatDateTime } from '../format/time';
import { useSingleFlight } from '../resources/transactions/use-single-flight';

interface PortalMe {
  username: string;
  role: string;
  permissions: string[];
  merchant: { id: string; name: string; active: boolean };
}
interface PortalProvider {
  id: string;
  name: string;
  apiKey: string;
  active: boolean;
  sandbox: boolean;
  previousSecretValidUntil: string | null;
}
interface PortalTransaction {
  id: string;
  number: number;
  type: 'deposit' | 'withdrawal';
  state: string;
  externalId: string;
  amount: number;
  customer: { fullName: string };
  createdAt: string;
  reason?: string;
}
interface PortalAttempt {
  number: number;
  startedAt: string;
  statusCode: number | null;
  outcome: string;
  error: string | null;
  responseExcerpt: string | null;
  latencyMs: number | null;
}
interface PortalCallback {
  id: string;
  state: string;
  targetUrl: string;
  attemptCount: number;
  attempts: PortalAttempt[];
}
type PortalTransactionDetail = PortalTransaction & {
  history: Array<{ type: string; at: string }>;
  callbacks: PortalCallback[];
};

/** The overlap windows offered when rotating; `default` sends none (the configured default, 24 h). */
const OVERLAPS = [
  { value: 'default', seconds: undefined, label: 'tg.portal.overlap_default' },
  { value: '3600', seconds: 3_600, label: 'tg.portal.overlap_hour' },
  { value: '0', seconds: 0, label: 'tg.portal.overlap_none' },
] as const;

const errorOf = (failure: unknown) => (failure instanceof Error ? failure.message : String(failure));
const DAY_MS = 86_400_000;
/** `YYYY-MM-DDTHH:mm` in the browser's zone, what a datetime-local input holds. */
const localInput = (ms: number) => {
  const date = new Date(ms);
  return new Date(ms - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

function PortalNav() {
  const translate = useTranslate();
  return (
    <Stack direction="row" spacing={1} sx={{ my: 2, flexWrap: 'wrap', rowGap: 1 }}>
      <Button component={RouterLink} to="/merchant" variant="outlined" size="small">
        {translate('tg.portal.home')}
      </Button>
      <Button component={RouterLink} to="/merchant/transactions" variant="outlined" size="small">
        {translate('tg.portal.transactions')}
      </Button>
    </Stack>
  );
}

/** The merchant's start page: its balance, its API credentials (rotation) and the delivery console. */
export function MerchantHome() {
  const translate = useTranslate();
  const me = useQuery({ queryKey: ['portal', 'me'], queryFn: () => panelFetch<PortalMe>('/portal/me') });
  const balance = useQuery({
    queryKey: ['portal', 'balance'],
    queryFn: () => panelFetch<{ balance: number; available: number }>('/portal/balance'),
  });
  const may = (permission: string) => me.data?.permissions.includes(permission) === true;
  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 960 }} data-testid="merchant-home">
      <Title title={translate('tg.portal.title')} />
      <Typography variant="h5" component="h1">
        {me.data?.merchant.name ?? '…'}
      </Typography>
      <PortalNav />
      <Card sx={{ mb: 2 }}>
        <CardContent>
          <Typography variant="h6" component="h2">
            {translate('tg.portal.balance')}
          </Typography>
          <Typography data-testid="merchant-balance">
            {balance.data ? formatTry(balance.data.balance) : '…'}
            {balance.data ? ` · ${translate('tg.portal.available')}: ${formatTry(balance.data.available)}` : ''}
          </Typography>
        </CardContent>
      </Card>
      <Providers mayRotate={may('portal.credentials')} />
      {may('portal.callbacks') ? <Recover /> : null}
    </Box>
  );
}

function Providers({ mayRotate }: { mayRotate: boolean }) {
  const translate = useTranslate();
  const queryClient = useQueryClient();
  const providers = useQuery({
    queryKey: ['portal', 'providers'],
    queryFn: () => panelFetch<{ items: PortalProvider[] }>('/portal/providers'),
  });
  const [rotating, setRotating] = useState<PortalProvider | null>(null);
  const [overlap, setOverlap] = useState<(typeof OVERLAPS)[number]['value']>('default');
  const [shown, setShown] = useState<{ apiKey: string; apiSecret: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['portal', 'providers'] });
  const rotate = useSingleFlight(async () => {
    if (!rotating) return;
    setError(null);
    try {
      const seconds = OVERLAPS.find((choice) => choice.value === overlap)?.seconds;
      const answer = await panelFetch<{ apiKey: string; apiSecret: string }>('/portal/providers/rotate-secret', {
        body: { id: rotating.id, ...(seconds !== undefined ? { overlapSeconds: seconds } : {}) },
      });
      setRotating(null);
      setShown({ apiKey: answer.apiKey, apiSecret: answer.apiSecret });
      await refresh();
    } catch (failure) {
      setError(errorOf(failure));
    }
  });
  const endOverlap = useSingleFlight(async (id: string) => {
    setError(null);
    try {
      await panelFetch('/portal/providers/end-secret-overlap', { body: { id } });
      await refresh();
    } catch (failure) {
      setError(errorOf(failure));
    }
  });
  return (
    <Card sx={{ mb: 2 }}>
      <CardContent>
        <Typography variant="h6" component="h2">
          {translate('tg.portal.credentials')}
        </Typography>
        {error ? <Alert severity="error">{error}</Alert> : null}
        <Stack spacing={2} sx={{ mt: 1 }}>
          {(providers.data?.items ?? []).map((provider) => (
            <Box key={provider.id} sx={{ borderTop: 1, borderColor: 'divider', pt: 1 }}>
              <Typography sx={{ fontWeight: 600 }}>{provider.name}</Typography>
              <Typography variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                {provider.apiKey}
              </Typography>
              {provider.previousSecretValidUntil ? (
                <Typography variant="body2" data-testid="overlap-until">
                  {translate('tg.portal.old_secret_until', {
                    until: formatDateTime(provider.previousSecretValidUntil),
                  })}
                </Typography>
              ) : null}
              {mayRotate ? (
                <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap', rowGap: 1 }}>
                  <Button variant="contained" size="small" onClick={() => setRotating(provider)}>
                    {translate('tg.portal.rotate')}
                  </Button>
                  {provider.previousSecretValidUntil ? (
                    <Button size="small" color="warning" onClick={() => void endOverlap.run(provider.id)}>
                      {translate('tg.portal.end_overlap')}
                    </Button>
                  ) : null}
                </Stack>
              ) : null}
            </Box>
          ))}
        </Stack>
      </CardContent>
      <Dialog open={rotating !== null} onClose={() => setRotating(null)}>
        <DialogTitle>{translate('tg.portal.rotate_title')}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" sx={{ mb: 2 }}>
            {translate('tg.portal.rotate_help')}
          </Typography>
          <TextField
            select
            fullWidth
            size="small"
            label={translate('tg.portal.overlap_label')}
            value={overlap}
            onChange={(event) => setOverlap(event.target.value as typeof overlap)}
          >
            {OVERLAPS.map((choice) => (
              <MenuItem key={choice.value} value={choice.value}>
                {translate(choice.label)}
              </MenuItem>
            ))}
          </TextField>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setRotating(null)}>{translate('ra.action.cancel')}</Button>
          <Button variant="contained" onClick={() => void rotate.run()} disabled={rotate.pending}>
            {translate('tg.portal.rotate')}
          </Button>
        </DialogActions>
      </Dialog>
      <Dialog open={shown !== null} onClose={() => setShown(null)}>
        <DialogTitle>{translate('tg.portal.new_secret')}</DialogTitle>
        <DialogContent>
          <Alert severity="warning" sx={{ mb: 2 }}>
            {translate('tg.portal.shown_once')}
          </Alert>
          <TextField
            fullWidth
            label={translate('tg.portal.api_secret')}
            value={shown?.apiSecret ?? ''}
            slotProps={{ htmlInput: { readOnly: true } }}
          />
        </DialogContent>
        <DialogActions>
          <Button variant="contained" onClick={() => setShown(null)}>
            {translate('tg.portal.stored')}
          </Button>
        </DialogActions>
      </Dialog>
    </Card>
  );
}

/** Resend every failed callback in a time range (the API bounds it and records one audit entry). */
function Recover() {
  const translate = useTranslate();
  const [from, setFrom] = useState(() => localInput(Date.now() - DAY_MS));
  const [to, setTo] = useState(() => localInput(Date.now() + 60_000));
  const [result, setResult] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const recover = useSingleFlight(async () => {
    setError(null);
    setResult(null);
    try {
      const answer = await panelFetch<{ requested: number }>('/portal/callbacks/recover', {
        body: { from: new Date(from).toISOString(), to: new Date(to).toISOString() },
      });
      setResult(translate('tg.portal.recovered', { count: answer.requested }));
    } catch (failure) {
      setError(errorOf(failure));
    }
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void recover.run();
  };
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2">
          {translate('tg.portal.recover_title')}
        </Typography>
        <Typography variant="body2" sx={{ mb: 2 }}>
          {translate('tg.portal.recover_help')}
        </Typography>
        <form onSubmit={onSubmit} noValidate>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              type="datetime-local"
              label={translate('tg.portal.from')}
              value={from}
              onChange={(event) => setFrom(event.target.value)}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <TextField
              type="datetime-local"
              label={translate('tg.portal.to')}
              value={to}
              onChange={(event) => setTo(event.target.value)}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <Button type="submit" variant="contained" disabled={recover.pending}>
              {translate('tg.portal.recover')}
            </Button>
          </Stack>
        </form>
        {result ? (
          <Alert severity="success" sx={{ mt: 2 }}>
            {result}
          </Alert>
        ) : null}
        {error ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** The merchant's transactions, newest first, searched like the operators' queue. */
export function MerchantTransactions() {
  const translate = useTranslate();
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const list = useQuery({
    queryKey: ['portal', 'transactions', q],
    queryFn: () =>
      panelFetch<{ items: PortalTransaction[] }>('/portal/transactions', {
        query: q ? { q, limit: '50' } : { limit: '50' },
      }),
  });
  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 960 }} data-testid="merchant-transactions">
      <Title title={translate('tg.portal.transactions')} />
      <Typography variant="h5" component="h1">
        {translate('tg.portal.transactions')}
      </Typography>
      <PortalNav />
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setQ(search.trim());
        }}
      >
        <Stack direction="row" spacing={1} sx={{ mb: 2 }}>
          <TextField
            size="small"
            label={translate('tg.portal.search')}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            sx={{ flex: 1 }}
          />
          <Button type="submit" variant="contained">
            {translate('tg.portal.search_button')}
          </Button>
        </Stack>
      </form>
      <Stack spacing={1}>
        {(list.data?.items ?? []).map((transaction) => (
          <Card key={transaction.id} variant="outlined">
            <CardContent sx={{ py: 1, '&:last-child': { pb: 1 } }}>
              <Button component={RouterLink} to={`/merchant/transactions/${transaction.id}`} sx={{ p: 0 }}>
                #{transaction.number} · {transaction.externalId}
              </Button>
              <Typography variant="body2">
                {translate(`tg.portal.type_${transaction.type}`)} · {formatTry(transaction.amount)} ·{' '}
                <Chip size="small" label={transaction.state} /> · {formatDateTime(transaction.createdAt)}
              </Typography>
            </CardContent>
          </Card>
        ))}
        {list.data && list.data.items.length === 0 ? <Typography>{translate('tg.portal.none')}</Typography> : null}
      </Stack>
    </Box>
  );
}

/** One transaction: its history and every callback with each attempt; resend one. */
export function MerchantTransaction() {
  const translate = useTranslate();
  const { id = '' } = useParams();
  const queryClient = useQueryClient();
  const detail = useQuery({
    queryKey: ['portal', 'transaction', id],
    queryFn: () => panelFetch<PortalTransactionDetail>(`/portal/transactions/${encodeURIComponent(id)}`),
  });
  const [error, setError] = useState<string | null>(null);
  const resend = useSingleFlight(async (callbackId: string) => {
    setError(null);
    try {
      await panelFetch('/portal/callbacks/resend', { body: { id: callbackId } });
      await queryClient.invalidateQueries({ queryKey: ['portal', 'transaction', id] });
    } catch (failure) {
      setError(errorOf(failure));
    }
  });
  const t = detail.data;
  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 960 }} data-testid="merchant-transaction">
      <Title title={t ? `#${t.number}` : '…'} />
      <Typography variant="h5" component="h1">
        {t ? `#${t.number} · ${t.externalId}` : '…'}
      </Typography>
      <PortalNav />
      {detail.error ? <Alert severity="error">{errorOf(detail.error)}</Alert> : null}
      {error ? <Alert severity="error">{error}</Alert> : null}
      {t ? (
        <Stack spacing={2}>
          <Typography>
            {translate(`tg.portal.type_${t.type}`)} · {formatTry(t.amount)} · <Chip size="small" label={t.state} /> ·{' '}
            {t.customer.fullName}
          </Typography>
          <Card variant="outlined">
            <CardContent>
              <Typography variant="h6" component="h2">
                {translate('tg.portal.history')}
              </Typography>
              {t.history.map((event, i) => (
                <Typography key={i} variant="body2">
                  {formatDateTime(event.at)} · {event.type}
                </Typography>
              ))}
            </CardContent>
          </Card>
          <Typography variant="h6" component="h2">
            {translate('tg.portal.callbacks')}
          </Typography>
          {t.callbacks.length === 0 ? <Typography>{translate('tg.portal.no_callbacks')}</Typography> : null}
          {t.callbacks.map((callback) => (
            <Card key={callback.id} variant="outlined" data-testid="portal-callback">
              <CardContent>
                <Typography sx={{ wordBreak: 'break-all' }}>
                  <Chip
                    size="small"
                    color={
                      callback.state === 'delivered' ? 'success' : callback.state === 'failed' ? 'error' : 'default'
                    }
                    label={translate(`tg.portal.state_${callback.state}`, { _: callback.state })}
                  />{' '}
                  {callback.targetUrl}
                </Typography>
                {callback.attempts.map((attempt) => (
                  <Typography key={attempt.number} variant="body2" sx={{ wordBreak: 'break-word' }}>
                    {translate('tg.portal.attempt', { number: attempt.number })} · {formatDateTime(attempt.startedAt)} ·{' '}
                    {attempt.statusCode ?? '—'} · {attempt.outcome}
                    {attempt.latencyMs !== null ? ` · ${attempt.latencyMs} ms` : ''}
                    {attempt.error ? ` · ${attempt.error}` : ''}
                    {attempt.responseExcerpt ? ` · “${attempt.responseExcerpt.slice(0, 120)}”` : ''}
                  </Typography>
                ))}
                <Button
                  size="small"
                  sx={{ mt: 1 }}
                  onClick={() => void resend.run(callback.id)}
                  disabled={resend.pending}
                >
                  {translate('tg.portal.resend')}
                </Button>
              </CardContent>
            </Card>
          ))}
        </Stack>
      ) : null}
    </Box>
  );
}
