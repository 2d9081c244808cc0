import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  MenuItem,
  Stack,
  TextField as MuiTextField,
  Typography,
} from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { Title, useNotify, usePermissions, useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { panelFetch } from '../../api/http';
import { readSession } from '../../api/session';
import { can } from '../../auth/auth-provider';
import { formatTry } from '../../format/money';
import { formatDateTime } from '../../format/time';
import { matchReasonParts, STATEMENT_FORMAT_CODES, STATEMENT_LAYOUT_CODES } from './match-reasons';
import { DISMISS_PRESETS } from './messages';

/** A statement line as GET /panel/reconciliation/lines answers it (amounts in kuruş, as strings). */
export interface StatementLine {
  lineId: string;
  bankAccountId: string;
  bankReference?: string;
  bookedOn: string;
  bookedAt?: string;
  direction: 'credit' | 'debit';
  amountKurus: string;
  description: string;
  counterpartyName?: string;
  state: 'queued' | 'matched' | 'dismissed';
  /** A matched line: the transaction it paid. */
  number?: number;
  differences: string[];
  candidates: Array<{
    transactionId: string;
    number: number;
    score: number;
    reasons: string[];
    differences: string[];
    strong: boolean;
    /** The deposit as it stands now: whose it is, for how much, and its state. */
    transaction?: { customerName: string; amountKurus: string; state: string };
  }>;
}

interface BankAccount {
  id: string;
  bank: string;
  iban: string;
}

const FORMATS = STATEMENT_FORMAT_CODES;
const PRESETS = STATEMENT_LAYOUT_CODES;
type Translate = (key: string, options?: Record<string, unknown>) => string;

/** A matcher's reason in the operator's language (see match-reasons.ts). */
export function reasonText(reason: string, translate: Translate): string {
  const parts = matchReasonParts(reason);
  const difference = parts.difference
    ? `${parts.difference.startsWith('-') ? '-' : '+'}${formatTry(parts.difference.replace(/^[+-]/, ''))}`
    : undefined;
  return translate(`recon.reason_code.${parts.code}`, {
    number: parts.number,
    minutes: parts.minutes,
    difference,
    text: parts.text,
  });
}

/**
 * Reconciliation: import a receiving account's bank statement, then work the queue of credit lines
 * not matched by themselves, each beside its candidate deposits (score, reasons, differences), with
 * one click to match (at the requested or the received amount) or to dismiss with a reason.
 */
export function ReconciliationPage() {
  const translate = useTranslate();
  const { permissions } = usePermissions();
  const [accounts, setAccounts] = useState<BankAccount[]>([]);
  const [accountId, setAccountId] = useState('');
  const [lines, setLines] = useState<StatementLine[]>([]);
  const [total, setTotal] = useState(0);
  // Opened from a deposit's history: the bank line that paid it, shown first.
  const shownLineId = new URLSearchParams(useLocation().search).get('line');
  const [shownLine, setShownLine] = useState<StatementLine | null>(null);
  useEffect(() => {
    if (!shownLineId) return setShownLine(null);
    void panelFetch<StatementLine>(`/panel/reconciliation/lines/${encodeURIComponent(shownLineId)}`).then(
      setShownLine,
      () => setShownLine(null),
    );
  }, [shownLineId]);

  useEffect(() => {
    void panelFetch<{ items?: BankAccount[] } | BankAccount[]>('/panel/bank-accounts').then((answer) => {
      const list = Array.isArray(answer) ? answer : (answer.items ?? []);
      setAccounts(list);
      if (list[0]) setAccountId((current) => current || list[0]!.id);
    });
  }, []);

  const reload = useCallback(async () => {
    if (!accountId) return;
    const page = await panelFetch<{ items: StatementLine[]; total: number }>('/panel/reconciliation/lines', {
      query: { bankAccountId: accountId, state: 'queued', direction: 'credit', limit: 100 },
    });
    setLines(page.items);
    setTotal(page.total);
  }, [accountId]);

  useEffect(() => {
    void reload();
  }, [reload]);

  return (
    <Box sx={{ mt: 2 }}>
      <Title title="recon.title" />
      {shownLine ? (
        <Box sx={{ mb: 2 }} data-testid="recon-line-shown">
          <Typography variant="h6" sx={{ mb: 1 }}>
            {translate('recon.line_shown')}
            {shownLine.number ? ` · TG-${shownLine.number}` : ''}
          </Typography>
          <LineCard line={shownLine} mayDecide={false} onDecided={reload} />
        </Box>
      ) : null}
      <Card sx={{ mb: 2 }}>
        <CardContent>
          <MuiTextField
            select
            size="small"
            label={translate('recon.account')}
            value={accountId}
            onChange={(event) => setAccountId(event.target.value)}
            sx={{ width: { xs: '100%', sm: 'auto' }, minWidth: { xs: 0, sm: 360 }, maxWidth: '100%' }}
            slotProps={{ htmlInput: { 'data-testid': 'recon-account' } }}
          >
            {accounts.map((a) => (
              <MenuItem key={a.id} value={a.id}>
                {a.bank} · {a.iban}
              </MenuItem>
            ))}
          </MuiTextField>
        </CardContent>
      </Card>
      {accountId ? <SummaryCard accountId={accountId} version={total} /> : null}
      {can(permissions, 'reconciliation.import') && accountId ? (
        <ImportCard accountId={accountId} onImported={reload} />
      ) : null}
      <Typography variant="h6" sx={{ mb: 1 }} data-testid="recon-queue-title">
        {translate('recon.queue', { count: total })}
      </Typography>
      {lines.length === 0 ? <Alert severity="success">{translate('recon.queue_empty')}</Alert> : null}
      <Stack spacing={2}>
        {lines.map((line) => (
          <LineCard
            key={line.lineId}
            line={line}
            mayDecide={can(permissions, 'reconciliation.decide') && can(permissions, 'transactions.approve')}
            onDecided={reload}
          />
        ))}
      </Stack>
    </Box>
  );
}

interface Summary {
  statement: { openingBalanceKurus?: string; closingBalanceKurus?: string; creditsKurus: string; debitsKurus: string };
  matchedKurus: string;
  dismissedKurus: string;
  unmatchedKurus: string;
  unmatchedLines: number;
  deposits: {
    issuedKurus: string;
    approvedKurus: string;
    approvedWithoutLineKurus: string;
    approvedWithoutLine: number;
  };
}

/** Today in Turkey (UTC+3), the default range of the summary and the report. */
const turkishToday = () => new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);

/** The account's statement beside what the gateway issued and approved, and the CSV report of the day. */
function SummaryCard({ accountId, version }: { accountId: string; version: number }) {
  const translate = useTranslate();
  const [day, setDay] = useState(turkishToday);
  const [summary, setSummary] = useState<Summary | null>(null);
  useEffect(() => {
    void panelFetch<Summary>(`/panel/reconciliation/accounts/${accountId}/summary`, {
      query: { from: day, to: day },
    }).then(setSummary, () => setSummary(null));
  }, [accountId, day, version]);
  const download = async () => {
    const session = readSession();
    const response = await fetch(`/panel/reconciliation/accounts/${accountId}/report.csv?from=${day}&to=${day}`, {
      headers: session ? { authorization: `Bearer ${session.accessToken}` } : {},
    });
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement('a');
    link.href = url;
    link.download = `reconciliation-${day}.csv`;
    link.click();
    URL.revokeObjectURL(url);
  };
  const money = (kurus?: string) => (kurus === undefined ? '—' : formatTry(BigInt(kurus)));
  return (
    <Card sx={{ mb: 2 }} data-testid="recon-summary">
      <CardContent>
        <Stack direction="row" sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap', gap: 2 }}>
          <MuiTextField
            type="date"
            size="small"
            label={translate('recon.day')}
            value={day}
            onChange={(e) => setDay(e.target.value)}
          />
          <Button size="small" onClick={() => void download()}>
            {translate('recon.report_csv')}
          </Button>
        </Stack>
        {summary ? (
          <Typography variant="body2">
            {translate('recon.summary', {
              closing: money(summary.statement.closingBalanceKurus),
              credits: money(summary.statement.creditsKurus),
              matched: money(summary.matchedKurus),
              dismissed: money(summary.dismissedKurus),
              unmatched: money(summary.unmatchedKurus),
              issued: money(summary.deposits.issuedKurus),
              approved: money(summary.deposits.approvedKurus),
              bare: money(summary.deposits.approvedWithoutLineKurus),
            })}
          </Typography>
        ) : null}
      </CardContent>
    </Card>
  );
}

interface ImportReport {
  linesInFile: number;
  linesNew: number;
  linesAlreadyImported: number;
  autoMatched: number;
  strongWaiting: number;
  queued: number;
  skipped: Array<{ at: string; reason: string }>;
}

function ImportCard({ accountId, onImported }: { accountId: string; onImported: () => Promise<void> }) {
  const translate = useTranslate();
  const [format, setFormat] = useState<(typeof FORMATS)[number]>('camt053');
  const [preset, setPreset] = useState<(typeof PRESETS)[number]>('garanti-bbva');
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [problems, setProblems] = useState<Array<{ at: string; message: string }> | null>(null);
  const [busy, setBusy] = useState(false);

  const upload = async () => {
    if (!file) return;
    setBusy(true);
    setReport(null);
    setProblems(null);
    try {
      const answer = await panelFetch<ImportReport>(`/panel/reconciliation/accounts/${accountId}/statements`, {
        method: 'POST',
        rawBody: file,
        query: { format, fileName: file.name, ...(format === 'csv' || format === 'xlsx' ? { preset } : {}) },
      });
      setReport(answer);
      await onImported();
    } catch (error) {
      const body = (
        error as { body?: { details?: { problems?: Array<{ at: string; message: string }> }; message?: string } }
      ).body;
      setProblems(body?.details?.problems ?? [{ at: 'file', message: body?.message ?? String(error) }]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card sx={{ mb: 2 }}>
      <CardContent>
        <Typography variant="h6" sx={{ mb: 1 }}>
          {translate('recon.import')}
        </Typography>
        <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 2 }}>
          <MuiTextField
            select
            size="small"
            label={translate('recon.format')}
            value={format}
            onChange={(e) => setFormat(e.target.value as (typeof FORMATS)[number])}
            slotProps={{ htmlInput: { 'data-testid': 'recon-format' } }}
          >
            {FORMATS.map((f) => (
              <MenuItem key={f} value={f}>
                {translate(`recon.formats.${f}`)}
              </MenuItem>
            ))}
          </MuiTextField>
          {format === 'csv' || format === 'xlsx' ? (
            <MuiTextField
              select
              size="small"
              label={translate('recon.preset')}
              value={preset}
              onChange={(e) => setPreset(e.target.value as (typeof PRESETS)[number])}
            >
              {PRESETS.map((p) => (
                <MenuItem key={p} value={p}>
                  {translate(`recon.layouts.${p}`)}
                </MenuItem>
              ))}
            </MuiTextField>
          ) : null}
          <input
            type="file"
            data-testid="recon-file"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            aria-label={translate('recon.file')}
            style={{ maxWidth: '100%' }}
          />
          <Button variant="contained" disabled={!file || busy} onClick={() => void upload()} data-testid="recon-upload">
            {translate('recon.upload')}
          </Button>
        </Stack>
        {report ? (
          <Alert severity="info" sx={{ mt: 2 }} data-testid="recon-report">
            {translate('recon.report', {
              inFile: report.linesInFile,
              fresh: report.linesNew,
              known: report.linesAlreadyImported,
              auto: report.autoMatched,
              strong: report.strongWaiting,
              queued: report.queued,
            })}
          </Alert>
        ) : null}
        {problems ? (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="recon-problems">
            {translate('recon.refused')}
            <ul>
              {problems.map((p) => (
                <li key={`${p.at}:${p.message}`}>
                  {p.at}: {p.message}
                </li>
              ))}
            </ul>
          </Alert>
        ) : null}
      </CardContent>
    </Card>
  );
}

function LineCard({
  line,
  mayDecide,
  onDecided,
}: {
  line: StatementLine;
  mayDecide: boolean;
  onDecided: () => Promise<void>;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);

  const act = async (path: string, body: unknown) => {
    setBusy(true);
    try {
      await panelFetch(`/panel/reconciliation/lines/${line.lineId}/${path}`, { body });
      notify('recon.decided', { type: 'success' });
      await onDecided();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card variant="outlined" data-testid="recon-line" data-reference={line.bankReference ?? ''}>
      <CardContent>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={3}>
          <Box sx={{ flex: 1 }}>
            <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
              {formatTry(BigInt(line.amountKurus))} · {line.bookedAt ? formatDateTime(line.bookedAt) : line.bookedOn}
            </Typography>
            <Typography variant="body2">{line.counterpartyName ?? '—'}</Typography>
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {line.description}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {line.bankReference ?? ''}
            </Typography>
            <Box sx={{ mt: 1 }}>
              {line.differences.map((d) => (
                <Chip key={d} size="small" color="warning" label={translate(`recon.difference.${d}`)} sx={{ mr: 1 }} />
              ))}
            </Box>
            {mayDecide ? (
              <Box sx={{ mt: 2 }}>
                <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mb: 1 }}>
                  {DISMISS_PRESETS.map((preset) => {
                    const text = translate(`recon.dismiss_presets.${preset}`);
                    return (
                      <Chip
                        key={preset}
                        size="small"
                        variant={reason === text ? 'filled' : 'outlined'}
                        label={text}
                        onClick={() => setReason(text)}
                        data-testid="recon-reason-preset"
                        data-preset={preset}
                      />
                    );
                  })}
                </Stack>
                <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
                  <MuiTextField
                    size="small"
                    label={translate('recon.reason')}
                    value={reason}
                    onChange={(e) => setReason(e.target.value)}
                    sx={{ flex: '1 1 200px' }}
                    slotProps={{ htmlInput: { 'data-testid': 'recon-reason', maxLength: 500 } }}
                  />
                  <Button
                    variant="outlined"
                    color="warning"
                    disabled={busy || !reason.trim()}
                    onClick={() => void act('dismiss', { reason })}
                    data-testid="recon-dismiss"
                  >
                    {translate('recon.dismiss')}
                  </Button>
                </Stack>
              </Box>
            ) : null}
          </Box>
          <Box sx={{ flex: 2 }}>
            {line.candidates.length === 0 ? (
              <Typography variant="body2">{translate('recon.no_candidates')}</Typography>
            ) : (
              <Stack spacing={1} aria-label={translate('recon.deposit')}>
                {line.candidates.map((c) => (
                  <CandidateRow
                    key={c.transactionId}
                    candidate={c}
                    mayDecide={mayDecide}
                    busy={busy}
                    onMatch={(amount) => void act('match', { transactionId: c.transactionId, amount })}
                  />
                ))}
              </Stack>
            )}
          </Box>
        </Stack>
      </CardContent>
    </Card>
  );
}

/**
 * One candidate deposit: its reference with whose it is, for how much and its state, why the
 * matcher proposed it (in the operator's language), and the decision buttons. An approved deposit
 * is only linked to the line ("Link"); an open one is matched and approved.
 */
function CandidateRow({
  candidate: c,
  mayDecide,
  busy,
  onMatch,
}: {
  candidate: StatementLine['candidates'][number];
  mayDecide: boolean;
  busy: boolean;
  onMatch: (amount: 'requested' | 'received') => void;
}) {
  const translate = useTranslate();
  const approved = c.transaction?.state === 'approved';
  return (
    <Box
      data-testid="recon-candidate"
      data-number={c.number}
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}
    >
      <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', columnGap: 1, rowGap: 0.5 }}>
        <Typography component="span" sx={{ fontWeight: 600 }}>
          TG-{c.number}
        </Typography>
        {c.strong ? <Chip size="small" color="success" label={translate('recon.strong')} /> : null}
        {c.transaction ? (
          <Typography component="span" variant="body2" data-testid="recon-candidate-deposit">
            {c.transaction.customerName} · {formatTry(BigInt(c.transaction.amountKurus))} ·{' '}
            {translate(`tg.tx.state.${c.transaction.state}`, { _: c.transaction.state })}
          </Typography>
        ) : null}
        <Typography component="span" variant="caption" color="text.secondary">
          {translate('recon.score_value', { score: c.score })}
        </Typography>
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }} data-testid="recon-reasons">
        {c.reasons.map((r) => reasonText(r, translate)).join(' · ')}
      </Typography>
      {c.differences.length > 0 ? (
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mt: 0.5 }}>
          {c.differences.map((d) => (
            <Chip key={d} size="small" color="warning" label={translate(`recon.difference.${d}`)} />
          ))}
        </Stack>
      ) : null}
      {mayDecide ? (
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mt: 1 }}>
          {approved ? (
            <Button
              size="small"
              variant="contained"
              disabled={busy}
              onClick={() => onMatch('requested')}
              title={translate('recon.link_hint')}
              data-testid="recon-link"
            >
              {translate('recon.link')}
            </Button>
          ) : (
            <Button
              size="small"
              variant="contained"
              disabled={busy}
              onClick={() => onMatch('requested')}
              data-testid="recon-match"
            >
              {translate('recon.match')}
            </Button>
          )}
          {!approved && (c.differences.includes('paid_less') || c.differences.includes('paid_more')) ? (
            <Button
              size="small"
              variant="outlined"
              disabled={busy}
              onClick={() => onMatch('received')}
              data-testid="recon-match-received"
            >
              {translate('recon.match_received')}
            </Button>
          ) : null}
        </Stack>
      ) : null}
    </Box>
  );
}
