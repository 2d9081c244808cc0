import { formatTry } from '../../format/money';
import type { AuditEntry } from './audit';

type Translate = (key: string, options?: Record<string, unknown>) => string;
type NameOf = (id: string | undefined) => string | undefined;

/** Record kinds of configuration events, for "changed the merchant Acme". */
const CONFIG_KINDS: Record<string, string> = {
  InfrastructureConfigured: 'infrastructure',
  MerchantConfigured: 'merchant',
  MerchantDeleted: 'merchant',
  ProviderConfigured: 'provider',
  ProviderDeleted: 'provider',
  BankAccountConfigured: 'bank_account',
  OperatorConfigured: 'operator',
  RoleConfigured: 'role',
  ApiSettingsConfigured: 'api_settings',
};

/** Every type the filter offers, in the order an operator thinks of them. */
export const AUDIT_TYPES = [
  'OperatorSignedIn',
  'OperatorSignInFailed',
  'OperatorSecondFactorVerified',
  'OperatorSecondFactorFailed',
  'TransactionApproved',
  'TransactionRejected',
  'TransactionAssigned',
  'TransactionAmountChanged',
  'AmountChangeRequested',
  'AmountChangeApproved',
  'AmountChangeRejected',
  'DepositRequested',
  'WithdrawalRequested',
  ...Object.keys(CONFIG_KINDS),
  'ProviderSecretRevealed',
  'CallbacksRecoveryRequested',
  'StatementImported',
  'StatementLineMatched',
  'StatementLineDismissed',
  'ReconciliationSettingsConfigured',
  'RiskRuleConfigured',
  'BlocklistEntriesAdded',
  'BlocklistEntriesRemoved',
  'RiskHoldReleased',
] as const;

/** Statement formats as operators know them (the reconciliation screen's names). */
const FORMAT_NAMES: Record<string, string> = {
  camt053: 'camt.053',
  camt052: 'camt.052',
  mt940: 'MT940',
  csv: 'CSV',
  xlsx: 'Excel',
};

/** `2026-12-07` as the UI language writes a day. */
function day(text: string): string {
  const [y, m, d] = text.split('-');
  return y && m && d ? `${d}.${m}.${y}` : text;
}

/** A bank line as operators find it on the statement: reference, amount, day and the file it came in. */
function statementLine(entry: AuditEntry, translate: Translate): string {
  const line = entry.statementLine;
  if (!line) return '?';
  return translate('logs.audit.sentences.statement_line', {
    reference: line.bankReference ?? '—',
    amount: formatTry(BigInt(line.amountKurus)),
    day: day(line.bookedOn),
    file: line.fileName ?? '—',
  });
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const kurus = (value: unknown) => (typeof value === 'string' && /^-?\d+$/.test(value) ? BigInt(value) : undefined);

/**
 * A changed field in words: `logs.audit.field_names.<field>` when there is one, else the name split
 * into lower-case words (`dailyLimitKurus` → `daily limit`), never an identifier.
 */
function fieldName(field: string, translate: Translate): string {
  const words = field
    .replace(/(Kurus|Bp|Sealed|Hash)$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return translate(`logs.audit.field_names.${field}`, { _: words });
}

/** What a record is called in a sentence: its name, username or IBAN. */
function recordName(after: Record<string, unknown>): string {
  return text(after.name) ?? text(after.username) ?? text(after.iban) ?? text(after.slug) ?? '';
}

/**
 * One audit entry as a sentence in the UI's language: who did what to which transaction (by
 * number) or record, with what changed (an amount change shows old → new). Types without a
 * sentence of their own still read as one ("… made a change"), never as an event name.
 */
export function auditSentence(entry: AuditEntry, translate: Translate, operatorName: NameOf): string {
  const after = entry.after ?? {};
  const who =
    entry.username ??
    (entry.actor && entry.actor !== entry.source ? (operatorName(entry.actor) ?? entry.actor) : undefined) ??
    translate(`tg.sources.${entry.source ?? 'system'}`, { _: entry.source ?? '—' });
  const number = entry.transactionNumber ?? '?';
  const key = `logs.audit.sentences.${entry.type}`;
  switch (entry.type) {
    case 'OperatorSignedIn':
      return translate(after.secondFactorRequired ? `${key}_2fa` : key, { who });
    case 'OperatorSignInFailed':
      return translate(key, { username: text(after.username) ?? '?' });
    case 'OperatorSecondFactorVerified':
    case 'OperatorSecondFactorFailed':
      return translate(key, { who: text(after.username) ?? who });
    case 'TransactionApproved':
    case 'DepositRequested':
    case 'WithdrawalRequested':
      return translate(key, { who, number });
    case 'TransactionRejected':
      return translate(key, { who, number, reason: text(after.reason) ?? '' });
    case 'TransactionAssigned':
      return translate(key, {
        who,
        number,
        assignee: operatorName(text(after.assignee)) ?? text(after.assignee) ?? '',
      });
    case 'AmountChangeRequested':
    case 'AmountChangeApproved':
    case 'AmountChangeRejected':
    case 'TransactionAmountChanged': {
      const from = kurus(after.fromKurus);
      const to = kurus(after.toKurus);
      return translate(key, {
        who,
        number,
        old: from === undefined ? '?' : formatTry(from),
        new: to === undefined ? '?' : formatTry(to),
        asker: operatorName(text(after.requestedBy)) ?? text(after.requestedBy) ?? '?',
        reason: text(after.reason) ?? '',
      });
    }
    case 'TransfersPosted':
    case 'TransfersReserved':
    case 'ReservationPosted':
    case 'ReservationVoided':
    case 'ReservationChanged':
      return translate('logs.audit.sentences.ledger', { who, number });
    case 'ApiKeyClaimed':
    case 'OperationGuidClaimed':
      return translate('logs.audit.sentences.claimed', { who });
    case 'ProviderSecretRevealed':
      return translate(key, { who, apiKey: text(after.apiKey) ?? '' });
    case 'CallbacksRecoveryRequested':
      return translate(key, {
        who,
        count: Array.isArray(after.deliveryIds) ? after.deliveryIds.length : '?',
        from: text(after.from) ?? '?',
        to: text(after.to) ?? '?',
      });
    case 'StatementImported':
      return translate(key, {
        who,
        file: text(after.fileName) ?? '—',
        format: FORMAT_NAMES[text(after.format) ?? ''] ?? text(after.format) ?? '?',
        lines: after.linesInFile ?? '?',
        fresh: after.linesNew ?? '?',
        known: after.linesAlreadyImported ?? '?',
      });
    case 'StatementLineMatched': {
      const decision = after.mode === 'auto' ? 'auto' : (text(after.decision) ?? 'approve');
      const requested = kurus(after.requestedAmountKurus);
      return translate(`${key}_${decision}`, {
        who,
        number: entry.transactionNumber ?? after.number ?? '?',
        line: statementLine(entry, translate),
        requested: requested === undefined ? '?' : formatTry(requested),
      });
    }
    case 'StatementLineDismissed':
      return translate(key, { who, line: statementLine(entry, translate), reason: text(after.reason) ?? '' });
    case 'StatementLineImported':
    case 'StatementLineAssessed':
    case 'StatementLineClaimed':
    case 'StatementMatchClaimed':
      return translate(key, { who, number, line: statementLine(entry, translate) });
    case 'ReconciliationSettingsConfigured':
      return translate(`${key}_${after.autoApprove ? 'on' : 'off'}`, {
        who,
        infrastructure: text(after.infrastructureId) ?? '?',
      });
    case 'RiskRuleConfigured':
      return translate(key, {
        who,
        name: text(after.name) ?? '?',
        version: after.version ?? '?',
        action: text(after.action) ?? '?',
        state: translate(after.active ? 'ra.boolean.true' : 'ra.boolean.false'),
      });
    case 'BlocklistEntriesAdded':
    case 'BlocklistEntriesRemoved': {
      const listed = Array.isArray(after.entries) ? after.entries : after.values;
      return translate(key, { who, count: Array.isArray(listed) ? listed.length : '?', version: after.version ?? '?' });
    }
    case 'RiskHoldReleased':
      return translate(key, { who, number });
    default:
      break;
  }
  const kind = CONFIG_KINDS[entry.type];
  if (kind) {
    const record = translate(`logs.audit.kinds.${kind}`);
    const name = recordName(after);
    const target = name ? `${record} “${name}”` : record;
    if (entry.type.endsWith('Deleted')) return translate('logs.audit.sentences.deleted', { who, target });
    if (entry.before === null) return translate('logs.audit.sentences.created', { who, target });
    const changes = (entry.changes ?? [])
      .filter((field) => field !== 'updatedAt')
      .map((field) => {
        const shown = (value: unknown) => {
          if (value === undefined || value === null) return '—';
          if (field.endsWith('Kurus') && kurus(value) !== undefined) return formatTry(kurus(value)!);
          if (typeof value === 'boolean') return translate(value ? 'ra.boolean.true' : 'ra.boolean.false');
          return typeof value === 'object' ? '…' : String(value);
        };
        return `${fieldName(field, translate)}: ${shown(entry.before?.[field])} → ${shown(after[field])}`;
      });
    return translate('logs.audit.sentences.changed', { who, target, changes: changes.join('; ') || '—' });
  }
  return translate('logs.audit.sentences.other', { who });
}
