import { secretsInForce } from './secret-overlap.js';

describe('secretsInForce', () => {
  const until = '2026-12-08T10:00:00.000Z';
  const untilMs = Date.parse(until);

  it('is the current secret alone without a previous one', () => {
    expect(secretsInForce({ current: 'new' }, untilMs - 1)).toEqual(['new']);
    expect(secretsInForce({ current: 'new', previous: 'old' }, untilMs - 1)).toEqual(['new']);
  });

  it('adds the previous secret while the overlap window is open, the current one first', () => {
    expect(secretsInForce({ current: 'new', previous: 'old', previousUntil: until }, untilMs - 1)).toEqual([
      'new',
      'old',
    ]);
  });

  it('drops the previous secret from the end of the window on', () => {
    expect(secretsInForce({ current: 'new', previous: 'old', previousUntil: until }, untilMs)).toEqual(['new']);
    expect(secretsInForce({ current: 'new', previous: 'old', previousUntil: 'not a time' }, 0)).toEqual(['new']);
  });
});
