import { consoleFormatFrom, consoleLine } from './console-lines.js';

describe('consoleFormatFrom', () => {
  it.each([
    // env, stdout is a terminal, format
    [{ LOG_FORMAT: 'json' }, true, 'json'],
    [{ LOG_FORMAT: 'json' }, false, 'json'],
    [{ LOG_FORMAT: 'text', NODE_ENV: 'production' }, false, 'text'],
    // Production into a container's log, a pipe or a file: JSON, as the log lines are.
    [{ NODE_ENV: 'production' }, false, 'json'],
    // A person at a terminal reads text, in production too.
    [{ NODE_ENV: 'production' }, true, 'text'],
    // Run by hand (no NODE_ENV, or development): text, whatever stdout is.
    [{}, false, 'text'],
    [{ NODE_ENV: 'development' }, false, 'text'],
  ] as const)('%j with a terminal %s: %s', (env, terminal, format) => {
    expect(consoleFormatFrom(env, terminal)).toBe(format);
  });
});

describe('consoleLine', () => {
  it("a JSON line is shaped like the log lines, with the banner's short message", () => {
    const line = consoleLine(
      'json',
      'info',
      'transfergate is ready\n  api: …',
      { api: 'http://x' },
      {
        jsonMsg: 'transfergate is ready',
        now: new Date('2026-12-07T10:00:00.000Z'),
      },
    );
    expect(JSON.parse(line)).toEqual({
      time: '2026-12-07T10:00:00.000Z',
      level: 'info',
      service: 'all-in-one',
      api: 'http://x',
      msg: 'transfergate is ready',
    });
    expect(consoleLine('text', 'info', 'plain')).toBe('plain');
  });
});
