import { z } from 'zod';
import { EVENT_CATALOG } from './catalog.js';
import {
  NO_PERSONAL_DATA,
  customerIdentities,
  declarePersonalData,
  looksPersonal,
  normalisePersonName,
  schemaLeafPaths,
  subjectIdentity,
  undeclaredPersonalLooking,
  unknownDeclaredPaths,
  valuesAt,
} from './personal-data.js';

describe('personal-data declarations of the event catalogue', () => {
  const entries = Object.entries(EVENT_CATALOG);

  it('declares every field that looks personal, in every event type, either way', () => {
    const undeclared = entries.flatMap(([type, entry]) =>
      undeclaredPersonalLooking(entry.schema, entry.personalData).map((path) => `${type}.${path}`),
    );
    expect(undeclared).toEqual([]);
  });

  it('declares only fields that exist, subject paths included', () => {
    const unknown = entries.flatMap(([type, entry]) =>
      unknownDeclaredPaths(entry.schema, entry.personalData).map((path) => `${type}.${path}`),
    );
    expect(unknown).toEqual([]);
  });

  it('names the customer fields that are encrypted', () => {
    const customer = ['fullName', 'username', 'userId', 'senderName', 'nationalId', 'email', 'phone'].map(
      (field) => `customer.${field}`,
    );
    const personal = Object.fromEntries(
      entries.filter(([, e]) => e.personalData.personal.length > 0).map(([type, e]) => [type, e.personalData.personal]),
    );
    expect(personal).toEqual({
      DepositRequested: [...customer],
      WithdrawalRequested: [...customer, 'iban'],
      StatementLineImported: ['description', 'counterpartyName', 'counterpartyIban'],
    });
  });

  it('fails a new event whose payer e-mail, phone, TCKN or IP is declared neither way', () => {
    const schema = z.object({
      transactionId: z.string(),
      payer: z.object({ email: z.string(), phoneNumber: z.string().optional(), tckn: z.string() }),
      clientIps: z.array(z.string()),
      amountKurus: z.string(),
    });
    expect(undeclaredPersonalLooking(schema, NO_PERSONAL_DATA)).toEqual([
      'payer.email',
      'payer.phoneNumber',
      'payer.tckn',
      'clientIps[]',
    ]);
    const declared = declarePersonalData({
      personal: ['payer.email', 'payer.phoneNumber', 'payer.tckn'],
      notPersonal: { 'clientIps[]': "the merchant's servers" },
      subject: { name: 'payer.email', ibans: [] },
    });
    expect(undeclaredPersonalLooking(schema, declared)).toEqual([]);
    expect(unknownDeclaredPaths(schema, { ...declared, personal: ['payer.fax'] })).toEqual(['payer.fax']);
  });

  it('tells personal-looking names from the others by their words', () => {
    expect(
      ['fullName', 'customer.username', 'iban', 'webhookAllowedIps[]', 'counterpartyName', 'ip'].map(looksPersonal),
    ).toEqual([true, true, true, true, true, true]);
    expect(['transactionId', 'description2x', 'shipping', 'amountKurus', 'tip', 'zip'].map(looksPersonal)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('refuses a declaration with personal fields and no subject, or a field declared both ways', () => {
    expect(() => declarePersonalData({ personal: ['name'], notPersonal: {} })).toThrow(/subject/);
    expect(() =>
      declarePersonalData({ personal: ['name'], notPersonal: { name: 'x' }, subject: { name: 'name', ibans: [] } }),
    ).toThrow(/both/);
  });

  it('walks optional, default, array and record fields', () => {
    const schema = z.object({
      a: z.string().optional(),
      b: z.array(z.object({ c: z.string() })),
      d: z.record(z.string(), z.string()).default({}),
    });
    expect(schemaLeafPaths(schema)).toEqual(['a', 'b[].c', 'd.*']);
    expect(valuesAt({ b: [{ c: 'x' }, { c: 'y' }], d: { k: 'v' } }, 'b[].c')).toEqual(['x', 'y']);
    expect(valuesAt({ d: { k: 'v' } }, 'd.*')).toEqual(['v']);
  });
});

describe('subject identity', () => {
  const deposit = EVENT_CATALOG.DepositRequested.personalData;
  const withdrawal = EVENT_CATALOG.WithdrawalRequested.personalData;
  const line = EVENT_CATALOG.StatementLineImported.personalData;

  it("is the merchant's user id when given", () => {
    expect(subjectIdentity(deposit, { merchantId: 'm1', customer: { fullName: 'Ayşe Yılmaz', userId: 'u-7' } })).toBe(
      'user\nm1\nu-7',
    );
  });

  it('is else the normalised name and the IBANs, the same across events and spellings', () => {
    const fromWithdrawal = subjectIdentity(withdrawal, {
      merchantId: 'm1',
      customer: { fullName: '  AYŞE  yılmaz ' },
      iban: 'tr33 0006 1005 1978 6457 8413 26',
    });
    const fromLine = subjectIdentity(line, {
      counterpartyName: 'Ayse Yilmaz',
      counterpartyIban: 'TR330006100519786457841326',
    });
    expect(fromWithdrawal).toBe('person\nayse yilmaz\nTR330006100519786457841326');
    expect(fromLine).toBe(fromWithdrawal);
    expect(normalisePersonName('İSMAİL Çağrı')).toBe('ismail cagri');
  });

  it('is null when the event names nobody', () => {
    expect(subjectIdentity(line, { description: 'EFT' })).toBeNull();
    expect(subjectIdentity(NO_PERSONAL_DATA, { name: 'x' })).toBeNull();
  });

  it('of an erasure request covers every identity events may have used, and no namesake through a user id', () => {
    const withUser = customerIdentities({ merchantId: 'm1', userId: 'u-7', name: 'Ayşe Yılmaz', ibans: ['TR33 0006'] });
    expect(withUser).toEqual(['user\nm1\nu-7', 'person\nayse yilmaz\nTR330006']);
    const byName = customerIdentities({ name: 'AYŞE YILMAZ', ibans: ['TR2', 'TR1'] });
    expect(byName).toEqual([
      'person\nayse yilmaz\n',
      'person\nayse yilmaz\nTR1',
      'person\nayse yilmaz\nTR2',
      'person\nayse yilmaz\nTR1,TR2',
    ]);
    const line = EVENT_CATALOG.StatementLineImported.personalData;
    expect(byName).toContain(subjectIdentity(line, { counterpartyName: 'Ayse Yilmaz', counterpartyIban: 'TR2' }));
    expect(byName).toContain(subjectIdentity(deposit, { merchantId: 'm1', customer: { fullName: 'ayşe yılmaz' } }));
  });
});
