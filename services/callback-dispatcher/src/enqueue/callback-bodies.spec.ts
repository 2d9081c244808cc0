import { createHash } from 'node:crypto';
import { buildCallbackBody, type CallbackFacts } from './callback-bodies.js';

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

const APPROVED_DEPOSIT: CallbackFacts = {
  type: 'deposit',
  outcome: 'approved',
  number: 1042,
  externalId: 'TX-77',
  amountKurus: 25_050n,
  customer: { fullName: 'Ayşe Yılmaz', username: 'ayse', userId: 'u-9' },
  echo: {},
  decidedAt: '2026-03-01T09:30:00+03:00',
};
const REJECTED_WITHDRAWAL: CallbackFacts = {
  type: 'withdrawal',
  outcome: 'rejected',
  number: 7,
  externalId: 'WD-1',
  amountKurus: 100_000n,
  customer: { fullName: 'Mehmet Demir' },
  echo: { OperationGuid: 'og-1', SecurityKey: 'sk-echo', CustomerMemberId: 'member-3' },
  reason: 'IBAN closed',
  decidedAt: '2026-03-01T06:30:00.000Z',
};

/** The API secret must be read only for the form that signs with it. */
function secretReader(secret = 'cb_secret') {
  const reads = { count: 0 };
  return {
    reads,
    read: () => {
      reads.count++;
      return secret;
    },
  };
}

describe('buildCallbackBody: the four callback forms', () => {
  it('Merchant: transactionId, amount as a number, confirm/cancel', () => {
    const secret = secretReader();
    expect(buildCallbackBody('merchant', APPROVED_DEPOSIT, secret.read)).toEqual({
      transactionId: 'TX-77',
      amount: 250.5,
      status: 'confirm',
    });
    expect(buildCallbackBody('merchant', REJECTED_WITHDRAWAL, secret.read)).toEqual({
      transactionId: 'WD-1',
      amount: 1000,
      status: 'cancel',
    });
    expect(secret.reads.count).toBe(0);
  });

  it('H2H: type, APPROVED/REJECTED, depositId, the decision time in UTC, uuid = transactionId, metadata; a reason only when rejected', () => {
    const approved = buildCallbackBody('h2h', APPROVED_DEPOSIT, secretReader().read);
    expect(approved).toEqual({
      type: 'deposit',
      transactionId: 'TX-77',
      status: 'APPROVED',
      amount: 250.5,
      depositId: 1042,
      timestamp: '2026-03-01T06:30:00.000Z',
      uuid: 'TX-77',
      metadata: { userID: 'u-9', username: 'ayse', senderName: 'Ayşe Yılmaz' },
    });
    expect(approved).not.toHaveProperty('reason');
    expect(buildCallbackBody('h2h', REJECTED_WITHDRAWAL, secretReader().read)).toEqual({
      type: 'withdrawal',
      transactionId: 'WD-1',
      status: 'REJECTED',
      amount: 1000,
      depositId: 7,
      timestamp: '2026-03-01T06:30:00.000Z',
      uuid: 'WD-1',
      metadata: { userID: '', username: '', senderName: 'Mehmet Demir' },
      reason: 'IBAN closed',
    });
  });

  it("H2H: the sender's name when known, and an empty reason when a rejection has none", () => {
    const body = buildCallbackBody(
      'h2h',
      { ...REJECTED_WITHDRAWAL, reason: undefined, customer: { fullName: 'A B', senderName: 'C D' } },
      secretReader().read,
    );
    expect(body).toMatchObject({ reason: '', metadata: { senderName: 'C D' } });
  });

  it('Infrastructure: PascalCase, the request echoed (SecurityKey, OperationGuidBack, CustomerMemberId)', () => {
    expect(buildCallbackBody('infrastructure', REJECTED_WITHDRAWAL, secretReader().read)).toEqual({
      CustomerFullName: 'Mehmet Demir',
      Amount: 1000,
      CustomerMemberId: 'member-3',
      RequestId: 'WD-1',
      SecurityKey: 'sk-echo',
      Status: false,
      Message: 'declined',
      OperationGuidBack: 'og-1',
    });
    // Not created over that form: empty echoes; the member id falls back to the username, then ''.
    expect(buildCallbackBody('infrastructure', APPROVED_DEPOSIT, secretReader().read)).toEqual({
      CustomerFullName: 'Ayşe Yılmaz',
      Amount: 250.5,
      CustomerMemberId: 'ayse',
      RequestId: 'TX-77',
      SecurityKey: '',
      Status: true,
      Message: 'confirmed',
      OperationGuidBack: '',
    });
    expect(
      buildCallbackBody('infrastructure', { ...APPROVED_DEPOSIT, customer: { fullName: 'X' } }, secretReader().read),
    ).toMatchObject({ CustomerMemberId: '' });
  });

  it('MD5: confirmed/declined and MD5(transactionId + status + amount + type + apiSecret), the amount as its JSON text', () => {
    const secret = secretReader('cb_secret');
    expect(buildCallbackBody('md5', APPROVED_DEPOSIT, secret.read)).toEqual({
      transactionId: 'TX-77',
      amount: 250.5,
      status: 'confirmed',
      type: 'deposit',
      signature: md5('TX-77confirmed250.5depositcb_secret'),
    });
    expect(secret.reads.count).toBe(1);
    expect(buildCallbackBody('md5', REJECTED_WITHDRAWAL, secret.read)).toMatchObject({
      status: 'declined',
      type: 'withdrawal',
      signature: md5('WD-1declined1000withdrawalcb_secret'),
    });
  });

  it('keeps kuruş exact in the amount, from 0.01 to the largest amount', () => {
    for (const [kurus, amount] of [
      [1n, 0.01],
      [10n, 0.1],
      [99_999_999_999_99n, 99_999_999_999.99],
    ] as const) {
      expect(
        buildCallbackBody('merchant', { ...APPROVED_DEPOSIT, amountKurus: kurus }, secretReader().read),
      ).toMatchObject({ amount });
    }
  });
});
