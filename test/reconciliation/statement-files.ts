import writeXlsxFile from 'write-excel-file/node';

/**
 * Synthetic bank statements for the tests: the same lines written in every format the import
 * reads, the way the banks print them (Turkish numbers and dates in CSV, dots in XML, `,` in MT940).
 */
export interface SyntheticLine {
  ref?: string;
  /** YYYY-MM-DD */
  day: string;
  /** HH:MM, Turkish time. */
  time?: string;
  direction: 'credit' | 'debit';
  amountKurus: bigint;
  description: string;
  name?: string;
  iban?: string;
}

export const ACCOUNT_IBAN = 'TR330006100519786457841326';

const dot = (k: bigint) => `${k / 100n}.${(k % 100n).toString().padStart(2, '0')}`;
const comma = (k: bigint) => dot(k).replace('.', ',');
/** `1.234,56` */
export function turkishAmount(k: bigint): string {
  const neg = k < 0n;
  const abs = neg ? -k : k;
  const whole = (abs / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${neg ? '-' : ''}${whole},${(abs % 100n).toString().padStart(2, '0')}`;
}
const dmy = (day: string) => `${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)}`;
const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function camt(
  lines: SyntheticLine[],
  kind: 'camt053' | 'camt052' = 'camt053',
  opts: { openingKurus?: bigint; pendingExtra?: boolean; accountIban?: string } = {},
): string {
  const msg = kind === 'camt053' ? 'BkToCstmrStmt' : 'BkToCstmrAcctRpt';
  const stmt = kind === 'camt053' ? 'Stmt' : 'Rpt';
  const ns =
    kind === 'camt053'
      ? 'urn:iso:std:iso:20022:tech:xsd:camt.053.001.08'
      : 'urn:iso:std:iso:20022:tech:xsd:camt.052.001.08';
  const opening = opts.openingKurus ?? 0n;
  const closing = lines.reduce((s, l) => s + (l.direction === 'credit' ? l.amountKurus : -l.amountKurus), opening);
  const bal = (code: string, k: bigint) =>
    `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="TRY">${dot(k < 0n ? -k : k)}</Amt><CdtDbtInd>${k < 0n ? 'DBIT' : 'CRDT'}</CdtDbtInd><Dt><Dt>${lines[0]?.day ?? '2026-11-23'}</Dt></Dt></Bal>`;
  const entry = (l: SyntheticLine, status = 'BOOK') => {
    const party = l.direction === 'credit' ? 'Dbtr' : 'Cdtr';
    const date = l.time ? `<DtTm>${l.day}T${l.time}:00+03:00</DtTm>` : `<Dt>${l.day}</Dt>`;
    return `<Ntry>${l.ref ? `<NtryRef>${xml(l.ref)}</NtryRef>` : ''}<Amt Ccy="TRY">${dot(l.amountKurus)}</Amt><CdtDbtInd>${l.direction === 'credit' ? 'CRDT' : 'DBIT'}</CdtDbtInd><Sts><Cd>${status}</Cd></Sts><BookgDt>${date}</BookgDt><ValDt><Dt>${l.day}</Dt></ValDt>${l.ref ? `<AcctSvcrRef>${xml(l.ref)}</AcctSvcrRef>` : ''}<BkTxCd/><NtryDtls><TxDtls>${l.name ? `<RltdPties><${party}><Pty><Nm>${xml(l.name)}</Nm></Pty></${party}>${l.iban ? `<${party}Acct><Id><IBAN>${l.iban}</IBAN></Id></${party}Acct>` : ''}</RltdPties>` : ''}<RmtInf><Ustrd>${xml(l.description)}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`;
  };
  const pending = opts.pendingExtra
    ? entry(
        { day: lines[0]?.day ?? '2026-11-23', direction: 'credit', amountKurus: 999n, description: 'pending' },
        'PDNG',
      )
    : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="${ns}"><${msg}><GrpHdr><MsgId>M1</MsgId><CreDtTm>2026-11-24T06:00:00+03:00</CreDtTm></GrpHdr>
<${stmt}><Id>S1</Id><Acct><Id><IBAN>${opts.accountIban ?? ACCOUNT_IBAN}</IBAN></Id><Ccy>TRY</Ccy></Acct>${bal('OPBD', opening)}${bal('CLBD', closing)}
${lines.map((l) => entry(l)).join('\n')}${pending}
</${stmt}></${msg}></Document>`;
}

export function mt940(lines: SyntheticLine[], opts: { structured?: boolean } = {}): string {
  const yymmdd = (day: string) => day.slice(2, 4) + day.slice(5, 7) + day.slice(8, 10);
  const first = lines[0]?.day ?? '2026-11-23';
  const closing = lines.reduce((s, l) => s + (l.direction === 'credit' ? l.amountKurus : -l.amountKurus), 0n);
  const out = [
    '{1:F01TGARTRISAXXX0000000000}{2:O940}{4:',
    ':20:STMT1',
    `:25:${ACCOUNT_IBAN}`,
    ':28C:1/1',
    `:60F:C${yymmdd(first)}TRY0,00`,
  ];
  for (const l of lines) {
    out.push(
      `:61:${yymmdd(l.day)}${l.day.slice(5, 7)}${l.day.slice(8, 10)}${l.direction === 'credit' ? 'C' : 'D'}${comma(l.amountKurus)}NTRFNONREF${l.ref ? `//${l.ref}` : ''}`,
    );
    if (opts.structured) {
      const text = l.description.match(/.{1,27}/g) ?? [''];
      out.push(
        `:86:051?00EFT${text.map((t, i) => `?2${i}${t}`).join('')}${l.name ? `?32${l.name.slice(0, 27)}` : ''}${l.iban ? `?31${l.iban}` : ''}`,
      );
    } else {
      const text = `${l.name ? `GONDEREN: ${l.name} - ` : ''}${l.description}`;
      const parts = text.match(/.{1,65}/g) ?? [''];
      out.push(`:86:${parts[0]}`, ...parts.slice(1));
    }
  }
  out.push(
    `:62F:${closing < 0n ? 'D' : 'C'}${yymmdd(lines[lines.length - 1]?.day ?? first)}TRY${comma(closing < 0n ? -closing : closing)}`,
    '-}',
  );
  return out.join('\r\n');
}

const csvCell = (s: string) => (/[;"\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/** Garanti BBVA layout: a preamble, `Tarih;Açıklama;Etiket;Tutar;Bakiye;Dekont No`, signed amounts. */
export function garantiCsv(lines: SyntheticLine[]): string {
  let balance = 0n;
  const rows = [
    'Hesap Hareketleri',
    `IBAN;${ACCOUNT_IBAN}`,
    '',
    'Tarih;Açıklama;Etiket;Tutar;Bakiye;Dekont No',
    ...lines.map((l) => {
      const signed = l.direction === 'credit' ? l.amountKurus : -l.amountKurus;
      balance += signed;
      const desc = `${l.name ? `${l.name} ` : ''}${l.description}`;
      return [dmy(l.day), csvCell(desc), '', turkishAmount(signed), turkishAmount(balance), l.ref ?? ''].join(';');
    }),
    `Toplam;;;${turkishAmount(balance)};;`,
  ];
  return rows.join('\r\n');
}

const IS_HEADER = [
  'İşlem Tarihi',
  'Saat',
  'Valör',
  'Açıklama',
  'Gönderen / Alıcı',
  'Karşı IBAN',
  'Borç',
  'Alacak',
  'Bakiye',
  'İşlem No',
];

function isRows(lines: SyntheticLine[]): string[][] {
  let balance = 0n;
  return lines.map((l) => {
    balance += l.direction === 'credit' ? l.amountKurus : -l.amountKurus;
    return [
      dmy(l.day),
      l.time ?? '',
      dmy(l.day),
      l.description,
      l.name ?? '',
      l.iban ?? '',
      l.direction === 'debit' ? turkishAmount(l.amountKurus) : '',
      l.direction === 'credit' ? turkishAmount(l.amountKurus) : '',
      turkishAmount(balance),
      l.ref ?? '',
    ];
  });
}

/** İş Bankası layout: Borç/Alacak columns, time, sender and IBAN columns; Windows-1254 is not used here. */
export function isBankasiCsv(lines: SyntheticLine[]): string {
  return [`Müşteri No;123`, IS_HEADER.join(';'), ...isRows(lines).map((r) => r.map(csvCell).join(';'))].join('\n');
}

/** The İş Bankası layout as an XLSX workbook: dates as date cells and amounts as number cells. */
export async function isBankasiXlsx(lines: SyntheticLine[]): Promise<Buffer> {
  const header = IS_HEADER.map((value) => ({ value, type: String }));
  const data = lines.map((l) => [
    { value: new Date(`${l.day}T00:00:00Z`), type: Date, format: 'dd.mm.yyyy' },
    { value: l.time ?? '', type: String },
    { value: new Date(`${l.day}T00:00:00Z`), type: Date, format: 'dd.mm.yyyy' },
    { value: l.description, type: String },
    { value: l.name ?? '', type: String },
    { value: l.iban ?? '', type: String },
    l.direction === 'debit' ? { value: Number(dot(l.amountKurus)), type: Number } : null,
    l.direction === 'credit' ? { value: Number(dot(l.amountKurus)), type: Number } : null,
    null,
    { value: l.ref ?? '', type: String },
  ]);
  return writeXlsxFile([[{ value: 'Hesap Dökümü', type: String }], header, ...data] as never).toBuffer();
}
