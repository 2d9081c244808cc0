import { csvTurkishTime, timeZoneLabel, utcOffset } from '../../apps/panel-web/src/format/turkish-time.js';
import { appEn, appTr } from '../../apps/panel-web/src/i18n/app-messages.js';
import { operatorMessages } from '../../apps/panel-web/src/i18n/operator-messages.js';

/** What operators read in exports, the app bar, the state filter and the 2FA step (plain functions and texts). */
describe('panel web: times in exports, the time zone, filter and 2FA texts', () => {
  it('writes CSV times in Turkish local time as dd.MM.yyyy HH:mm:ss, whatever the zone of the machine', () => {
    expect(csvTurkishTime('2026-12-07T17:58:19.123Z')).toBe('07.12.2026 20:58:19');
    // Past midnight in Turkey while still the day before in UTC.
    expect(csvTurkishTime('2026-12-31T21:00:00Z')).toBe('01.01.2027 00:00:00');
    expect(csvTurkishTime(undefined)).toBe('');
    expect(csvTurkishTime(null)).toBe('');
    expect(csvTurkishTime('not a time')).toBe('not a time');
  });

  it('names the time zone as operators say it: TSİ (UTC+3) in Turkish', () => {
    const at = new Date('2026-07-01T12:00:00Z');
    expect(timeZoneLabel('Europe/Istanbul', 'tr', at)).toBe('TSİ (UTC+3)');
    expect(timeZoneLabel('Europe/Istanbul', 'en', at)).toBe('TRT (UTC+3)');
    expect(timeZoneLabel('Europe/Berlin', 'tr', at)).toBe('Europe/Berlin (UTC+2)');
    expect(utcOffset('UTC', at)).toBe('UTC');
  });

  it('offers "Tümü" / "All" in the state filter', () => {
    expect(appTr.tg.tx.filters.all).toBe('Tümü');
    expect(appEn.tg.tx.filters.all).toBe('All');
  });

  it('says that a 2FA code may have just been used', () => {
    expect(operatorMessages.tr.tg.errors.invalid_two_factor_code).toMatch(/az önce kullanılmış/);
    expect(operatorMessages.en.tg.errors.invalid_two_factor_code).toMatch(/just used/);
  });
});
