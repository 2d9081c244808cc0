import { turkishDay, turkishDayOfIso } from './turkish-day.js';

/** What turkishDay answered before it kept the last day: the UTC+3 date of the instant. */
const reference = (ms: number) => new Date(ms + 3 * 3_600_000).toISOString().slice(0, 10);

describe('turkishDay', () => {
  it('answers the UTC+3 date around midnight in Türkiye (21:00 UTC), in any order of calls', () => {
    const midnight = Date.UTC(2026, 10, 24, 21, 0, 0, 0); // 00:00 on 25 November, Türkiye
    const instants = [-1, 0, 1, -3_600_000, 3_600_000, 86_400_000 - 1, 86_400_000, -86_400_000].map(
      (offsetMs) => midnight + offsetMs,
    );
    // Forwards, backwards and repeated: a kept day must never be answered for another day.
    for (const ms of [...instants, ...instants.reverse(), ...instants]) expect(turkishDay(ms)).toBe(reference(ms));
    expect(turkishDay(midnight - 1)).toBe('2026-11-24');
    expect(turkishDay(midnight)).toBe('2026-11-25');
  });

  it('agrees with the reference over random instants from 1970 to 2100, before the epoch too', () => {
    let seed = 42;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 20_000; i++) {
      const ms = Math.floor((next() * 130 - 1) * 365.25 * 86_400_000);
      expect(turkishDay(ms)).toBe(reference(ms));
    }
  });

  it('refuses an instant that is not a number, as before', () => {
    expect(() => turkishDay(Number.NaN)).toThrow(RangeError);
  });

  it('reads an ISO time to the same day, with or without an offset, cached or not', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 5_000; i++) {
      const ms = Math.floor((next() * 60 + 10) * 365.25 * 86_400_000);
      const iso = new Date(ms).toISOString();
      // Twice: the second answer comes from the hour's cache.
      expect(turkishDayOfIso(iso)).toBe(reference(ms));
      expect(turkishDayOfIso(iso)).toBe(reference(ms));
    }
    // 20:59:59.999 UTC is the 24th in Türkiye, 21:00 the 25th; an offset form is read as its instant.
    expect(turkishDayOfIso('2026-11-24T20:59:59.999Z')).toBe('2026-11-24');
    expect(turkishDayOfIso('2026-11-24T21:00:00.000Z')).toBe('2026-11-25');
    expect(turkishDayOfIso('2026-11-25T00:30:00.000+03:00')).toBe('2026-11-25');
    expect(turkishDayOfIso('2026-11-25T00:30:00.000+05:00')).toBe('2026-11-24');
  });

  it('refuses an unreadable time instead of filing it on some day', () => {
    expect(() => turkishDayOfIso('yesterday')).toThrow(RangeError);
    expect(() => turkishDayOfIso('')).toThrow(RangeError);
  });
});
