// A generated business day of one receiving account with known truth, for the reconciliation's
// bench (bench/reconciliation-phase.mjs) and its tests (test/reconciliation/matcher.spec.ts):
// deposits (names from a small pool, so namesakes happen; many round amounts, so equal amounts
// happen) and the statement lines that pay them, each line knowing which deposit it really pays.
//
// Fates per deposit: paid with a reference in an odd spelling and the exact amount (the strong case);
// with a reference but a few kuruş off; with a reference by a third party; with a reference after
// expiry; without a reference, sender named; not paid at all. Plus double payments, unknown credits
// and debit lines. Deterministic for a seed.

import { performance } from 'node:perf_hooks';

const FIRST = [
  'Ayşe',
  'Mehmet',
  'Fatma',
  'Ali',
  'Zeynep',
  'Mustafa',
  'Emine',
  'Ahmet',
  'Hatice',
  'Hüseyin',
  'Elif',
  'İbrahim',
  'Merve',
  'Hasan',
  'Şule',
  'Can',
  'Özge',
  'Emre',
  'Gül',
  'Burak',
  'Çağla',
  'Oğuz',
  'Derya',
  'Işıl',
  'Kemal',
  'Sibel',
  'Yusuf',
  'Ebru',
  'Murat',
  'Dilek',
  'Serkan',
  'Aslı',
  'Okan',
  'Pınar',
  'Tolga',
  'Ece',
  'Uğur',
  'Nur',
  'Cem',
  'Büşra',
];
const LAST = [
  'Yılmaz',
  'Kaya',
  'Demir',
  'Şahin',
  'Çelik',
  'Yıldız',
  'Yıldırım',
  'Öztürk',
  'Aydın',
  'Özdemir',
  'Arslan',
  'Doğan',
  'Kılıç',
  'Aslan',
  'Çetin',
  'Kara',
  'Koç',
  'Kurt',
  'Özkan',
  'Şimşek',
  'Polat',
  'Özer',
  'Güneş',
  'Erdoğan',
  'Aktaş',
  'Işık',
  'Tekin',
  'Ünal',
  'Bulut',
  'Keskin',
  'Güler',
  'Acar',
  'Uçar',
  'Bozkurt',
  'Turan',
  'Karaca',
  'Sarı',
  'Avcı',
  'Tuncer',
  'Ekinci',
];
const WHOLE_TRY_AMOUNTS = [100, 150, 200, 250, 300, 500, 750, 1000, 1500, 2000, 2500, 5000];
const SPELLINGS = [
  (n) => `TG-${n}`,
  (n) => `tg ${n}`,
  (n) => `TG${n}`,
  (n) => `T G - ${n}`,
  (n) => `Tğ${n}`,
  (n) => `tg_${n}`,
  (n) => `Ödeme TG ${n}`,
  (n) => `açıklama: tg-0${n}`,
  (n) => `TĞ ${n} yatırım`,
];
const MINUTE = 60_000;

function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const trUpper = (s) => s.replace(/i/g, 'İ').replace(/ı/g, 'I').toUpperCase();

/**
 * @param {{ deposits: number, seed?: number, baseMs?: number, firstNumber?: number, padLinesTo?: number }} o
 */
export function generateDay(o) {
  const random = rng(o.seed ?? 1);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const baseMs = o.baseMs ?? Date.parse('2026-11-23T06:00:00Z');
  const deposits = [];
  const lines = [];
  let ref = 0;
  const addLine = (l) => lines.push({ ref: `R${++ref}`, ...l });
  for (let i = 0; i < o.deposits; i++) {
    const number = (o.firstNumber ?? 1) + i;
    const first = pick(FIRST);
    const last = pick(LAST);
    const amountKurus =
      random() < 0.7 ? BigInt(pick(WHOLE_TRY_AMOUNTS)) * 100n : BigInt(5_000 + Math.floor(random() * 1_995_000));
    const createdAtMs = baseMs + Math.floor((random() * 20 * 60 + 0) * MINUTE);
    const deposit = {
      transactionId: uuidOf(o.seed ?? 1, number),
      number,
      state: 'awaiting_payment',
      amountKurus,
      names: [`${first} ${last}`],
      createdAtMs,
      expiresAtMs: createdAtMs + 30 * MINUTE,
      matched: false,
    };
    deposits.push(deposit);
    const paidAt = createdAtMs + Math.floor((1 + random() * 24) * MINUTE);
    const variant = random();
    const sender =
      variant < 0.3
        ? `${first} ${last}`
        : variant < 0.55
          ? trUpper(`${last} ${first}`)
          : variant < 0.75
            ? `${first[0]}. ${last}`
            : `${first.toLowerCase()} ${last.toLowerCase()}`;
    const fate = random();
    const base = { direction: 'credit', atMs: paidAt, name: sender };
    if (fate < 0.55)
      addLine({ ...base, amountKurus, description: pick(SPELLINGS)(number), truth: number, eligible: true });
    else if (fate < 0.63) {
      const off = BigInt(1 + Math.floor(random() * 500)) * (random() < 0.5 ? -1n : 1n);
      addLine({
        ...base,
        amountKurus: amountKurus + off,
        description: pick(SPELLINGS)(number),
        truth: number,
        eligible: false,
      });
    } else if (fate < 0.67) {
      addLine({
        ...base,
        amountKurus,
        name: `${pick(FIRST)} Üçüncü${i}`,
        description: pick(SPELLINGS)(number),
        truth: number,
        eligible: false,
      });
    } else if (fate < 0.7) {
      addLine({
        ...base,
        atMs: createdAtMs + 50 * MINUTE,
        amountKurus,
        description: pick(SPELLINGS)(number),
        truth: number,
        eligible: false,
      });
    } else if (fate < 0.85) {
      addLine({
        ...base,
        amountKurus,
        description: pick(['havale', 'EFT', 'FAST', 'yatırım', 'para transferi']),
        truth: number,
        eligible: true,
      });
    }
    // else: never paid.
    if (fate < 0.55 && random() < 0.02) {
      addLine({
        ...base,
        atMs: paidAt + 3 * MINUTE,
        amountKurus,
        description: pick(SPELLINGS)(number),
        truth: null,
        eligible: false,
      });
    }
  }
  const target = Math.max(lines.length, o.padLinesTo ?? Math.round(o.deposits * 0.95));
  while (lines.length < target) {
    const atMs = baseMs + Math.floor(random() * 22 * 60 * MINUTE);
    if (random() < 0.6) {
      addLine({
        direction: 'credit',
        atMs,
        amountKurus: BigInt(1 + Math.floor(random() * 9_999_999)),
        name: `${pick(FIRST)} Bilinmez`,
        description: pick(['kira', 'iade', 'virman', 'EFT']),
        truth: null,
        eligible: false,
      });
    } else {
      addLine({
        direction: 'debit',
        atMs,
        amountKurus: BigInt(100 + Math.floor(random() * 500_000)),
        description: pick(['EFT masrafı', 'ödeme', 'vergi']),
        truth: null,
        eligible: false,
      });
    }
  }
  lines.sort((a, b) => a.atMs - b.atMs);
  return { deposits, lines };
}

/** Precision and recall of the strong (automatic) matches against the truth. */
export function scoreOutcomes(day, strongOf) {
  let strong = 0;
  let correct = 0;
  const wrongStrong = [];
  const eligible = day.lines.filter((l) => l.eligible).length;
  for (const l of day.lines) {
    const s = strongOf(l);
    if (s === undefined) continue;
    strong += 1;
    if (s === l.truth) correct += 1;
    else wrongStrong.push({ ref: l.ref, truth: l.truth, strong: s });
  }
  return {
    lines: day.lines.length,
    eligible,
    strong,
    correct,
    precision: strong === 0 ? 1 : correct / strong,
    recall: correct / eligible,
    wrongStrong: wrongStrong.slice(0, 10),
  };
}

/** Runs the matcher itself over the day (no database): the pure precision/recall and its time. */
export function scoreDay(day, Matcher) {
  const matcher = new Matcher(day.deposits);
  const strong = new Map();
  const t0 = performance.now();
  for (const l of day.lines) {
    const a = matcher.assess({
      lineId: l.ref,
      direction: l.direction,
      amountKurus: l.amountKurus,
      bookedOn: dayOf(l.atMs),
      bookedAt: new Date(l.atMs).toISOString(),
      description: l.description,
      ...(l.name ? { counterpartyName: l.name } : {}),
    });
    if (a.strong) strong.set(l.ref, a.strong.number);
  }
  const ms = performance.now() - t0;
  return { ...scoreOutcomes(day, (l) => strong.get(l.ref)), matchMs: ms };
}

/** The lines as an İş Bankası style CSV (`is-bankasi` preset): Turkish dates, times and amounts. */
export function isBankasiCsv(day) {
  const out = ['İşlem Tarihi;Saat;Valör;Açıklama;Gönderen / Alıcı;Karşı IBAN;Borç;Alacak;Bakiye;İşlem No'];
  for (const l of day.lines) {
    const local = new Date(l.atMs + 3 * 3_600_000).toISOString();
    const d = `${local.slice(8, 10)}.${local.slice(5, 7)}.${local.slice(0, 4)}`;
    const amount = turkish(l.amountKurus);
    out.push(
      [
        d,
        local.slice(11, 16),
        d,
        l.description,
        l.name ?? '',
        '',
        l.direction === 'debit' ? amount : '',
        l.direction === 'credit' ? amount : '',
        '',
        l.ref,
      ].join(';'),
    );
  }
  return out.join('\n');
}

/**
 * The lines as one camt.053 end-of-day statement of `iban`: booked entries with the sender, the
 * remittance text and the bank reference; opening balance 0 and the closing balance they make.
 */
export function camt053(day, iban) {
  const dot = (k) => `${k / 100n}.${(k % 100n).toString().padStart(2, '0')}`;
  const xml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  let closing = 0n;
  const entries = day.lines.map((l) => {
    closing += l.direction === 'credit' ? l.amountKurus : -l.amountKurus;
    const at = new Date(l.atMs + 3 * 3_600_000).toISOString().slice(0, 19);
    const party = l.direction === 'credit' ? 'Dbtr' : 'Cdtr';
    const name = l.name ? `<RltdPties><${party}><Pty><Nm>${xml(l.name)}</Nm></Pty></${party}></RltdPties>` : '';
    return (
      `<Ntry><Amt Ccy="TRY">${dot(l.amountKurus)}</Amt><CdtDbtInd>${l.direction === 'credit' ? 'CRDT' : 'DBIT'}</CdtDbtInd>` +
      `<Sts><Cd>BOOK</Cd></Sts><BookgDt><DtTm>${at}+03:00</DtTm></BookgDt><AcctSvcrRef>${l.ref}</AcctSvcrRef>` +
      `<NtryDtls><TxDtls>${name}<RmtInf><Ustrd>${xml(l.description)}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`
    );
  });
  const bal = (code, k) =>
    `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="TRY">${dot(k < 0n ? -k : k)}</Amt>` +
    `<CdtDbtInd>${k < 0n ? 'DBIT' : 'CRDT'}</CdtDbtInd></Bal>`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">` +
    `<BkToCstmrStmt><GrpHdr><MsgId>BENCH</MsgId></GrpHdr><Stmt><Id>S1</Id><Acct><Id><IBAN>${iban}</IBAN></Id></Acct>` +
    `${bal('OPBD', 0n)}${bal('CLBD', closing)}\n${entries.join('\n')}\n</Stmt></BkToCstmrStmt></Document>`
  );
}

function turkish(k) {
  const whole = (k / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${whole},${(k % 100n).toString().padStart(2, '0')}`;
}

function dayOf(ms) {
  return new Date(ms + 3 * 3_600_000).toISOString().slice(0, 10);
}

function uuidOf(seed, number) {
  const s = (seed % 0x10000).toString(16).padStart(4, '0');
  return `00000000-${s}-4000-8000-${number.toString(16).padStart(12, '0')}`;
}
