import { subjectAccessCsv } from './export-customer.js';

describe('subjectAccessCsv', () => {
  it('writes one readable row per held field, quoting and defusing spreadsheet formulas', () => {
    const csv = subjectAccessCsv({
      generatedAt: '2026-12-07T00:00:00.000Z',
      identitiesLookedUp: 2,
      identitiesHeld: 1,
      fields: [
        {
          recordedAt: '2026-12-01T10:00:00.000Z',
          eventType: 'DepositRequested',
          streamId: 'txn-1',
          field: 'customer.fullName',
          value: 'Zeynep "Zee", Şükrü',
        },
        {
          recordedAt: '2026-12-01T10:00:00.000Z',
          eventType: 'DepositRequested',
          streamId: 'txn-1',
          field: 'customer.username',
          value: '=HYPERLINK("x")',
        },
      ],
    });
    expect(csv).toBe(
      'recorded_at,event,stream,field,value\r\n' +
        '2026-12-01T10:00:00.000Z,DepositRequested,txn-1,customer.fullName,"Zeynep ""Zee"", Şükrü"\r\n' +
        `2026-12-01T10:00:00.000Z,DepositRequested,txn-1,customer.username,"'=HYPERLINK(""x"")"\r\n`,
    );
  });
});
