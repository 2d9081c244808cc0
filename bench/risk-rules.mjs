// Risk rules for the bench: 20 active rules (10 blocklists holding 100,000 entries between them, 10
// velocity limits) that the bench's requests never hit, so every request is screened against all of
// them and goes on. Loaded through the app's own command bus, as the panel would send them.
//   await loadRiskRules(running, contracts)   (contracts: the checkout's @transfergate/contracts)
export const RISK_RULE_COUNT = 20;
export const BLOCKLIST_ENTRY_COUNT = 100_000;
const ENTRIES_PER_COMMAND = 10_000;

const BLOCKLISTS = [
  ['fullName', (i) => `Kara Liste Müşteri ${i}`],
  ['fullName', (i) => `Şüpheli Kişi ${i}`],
  ['userId', (i) => `blocked-user-${i}`],
  ['username', (i) => `blocked_${i}`],
  ['ip', (i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`],
  ['ip', (i) => `172.${16 + (i >> 12)}.${(i >> 4) & 255}.${(i & 15) * 16}/28`],
  ['email', (i) => `blocked${i}@example.com`],
  ['phone', (i) => `0532${String(1_000_000 + i).slice(-7)}`],
  ['tckn', (i) => tckn(100_000_000 + i)],
  ['iban', (i) => iban(i)],
];
// Limits the bench's requests never reach: its one customer ("Bench Customer", no user id) makes
// thousands of deposits a round, so the count limits (at most 500, what the velocity memory keeps)
// are scoped to another merchant; the amount limits are global and sum the customer's last 500
// deposits on every screening (the dearest case of a velocity limit).
const ELSEWHERE = { level: 'merchant', id: 'not-the-bench-merchant' };
const GLOBAL = { level: 'global' };
const VELOCITY = [
  ['depositAmountPerDay', '100000000000000', GLOBAL],
  ['depositAmountPerDay', '200000000000000', GLOBAL],
  ['depositAmountPerDay', '300000000000000', GLOBAL],
  ['firstDeposit', '100000000000000', GLOBAL],
  ['firstDeposit', '200000000000000', GLOBAL],
  ['withdrawalsPerDay', '500', GLOBAL],
  ['withdrawalAfterDeposit', '1', GLOBAL],
  ['depositsPerHour', '500', ELSEWHERE],
  ['depositsPerDay', '500', ELSEWHERE],
  ['withdrawalsPerDay', '499', ELSEWHERE],
];

export async function loadRiskRules(running, contracts) {
  const actor = { source: 'system' };
  const perList = BLOCKLIST_ENTRY_COUNT / BLOCKLISTS.length;
  for (const [n, [field, valueOf]] of BLOCKLISTS.entries()) {
    const { ruleId } = await running.commands.execute(
      new contracts.ConfigureRiskRuleCommand(
        {
          name: `bench ${field} ${n}`,
          scope: { level: 'global' },
          check: { kind: 'blocklist', field },
          action: 'refuse',
          active: true,
        },
        actor,
      ),
    );
    for (let from = 0; from < perList; from += ENTRIES_PER_COMMAND) {
      const entries = [];
      for (let i = from; i < Math.min(perList, from + ENTRIES_PER_COMMAND); i++)
        entries.push({ value: valueOf(i), reason: 'bench' });
      await running.commands.execute(new contracts.AddBlocklistEntriesCommand(ruleId, entries, actor));
    }
  }
  for (const [n, [limit, value, scope]] of VELOCITY.entries()) {
    await running.commands.execute(
      new contracts.ConfigureRiskRuleCommand(
        {
          name: `bench ${limit} ${n}`,
          scope,
          check: { kind: 'velocity', limit, value },
          action: n % 2 === 0 ? 'hold' : 'flag',
          active: true,
        },
        actor,
      ),
    );
  }
  // What the ledger folds: every rule and entry, as the stream holds them.
  const events = await running.store.readStream(contracts.STREAMS.riskRules());
  const rules = new Set(events.map((e) => e.data.ruleId)).size;
  const entries = events.reduce((n, e) => n + (e.type === 'BlocklistEntriesAdded' ? e.data.entries.length : 0), 0);
  if (rules !== RISK_RULE_COUNT || entries !== BLOCKLIST_ENTRY_COUNT)
    throw new Error(`risk rules: ${rules} rules and ${entries} entries stored`);
  return { rules, entries };
}

/** A valid TCKN from nine leading digits. */
function tckn(nine) {
  const d = String(nine).padStart(9, '1').slice(0, 9).split('').map(Number);
  if (d[0] === 0) d[0] = 1;
  const odd = d[0] + d[2] + d[4] + d[6] + d[8];
  const even = d[1] + d[3] + d[5] + d[7];
  d.push((((odd * 7 - even) % 10) + 10) % 10);
  d.push(d.reduce((a, b) => a + b, 0) % 10);
  return d.join('');
}

/** A valid Turkish IBAN with a bank code of 00099 and the account number `i`. */
function iban(i) {
  const bban = `00099` + `0` + String(i).padStart(16, '0');
  const rearranged = `${bban}TR00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let remainder = 0;
  for (const digit of rearranged) remainder = (remainder * 10 + Number(digit)) % 97;
  return `TR${String(98 - remainder).padStart(2, '0')}${bban}`;
}
