/**
 * What the server prints on its own (the start banner, provisioning summaries, the stop lines): text
 * for a person at a terminal, or one JSON line each, shaped like the log lines (`time`, `level`,
 * `service`, `msg` and named fields), when the logs are JSON (LOG_FORMAT=json), so that a log
 * collector parses every line of the process.
 */
export type ConsoleFormat = 'text' | 'json';

export type ConsoleLevel = 'info' | 'warn' | 'error';

/** The format of the server's own lines: JSON exactly when LOG_FORMAT asks the logs for JSON. */
export function consoleFormatFrom(env: NodeJS.ProcessEnv): ConsoleFormat {
  return env.LOG_FORMAT === 'json' ? 'json' : 'text';
}

/** The `service` of every JSON line the all-in-one process prints (its logger's too). */
export const CONSOLE_SERVICE = 'all-in-one';

/**
 * One printed line. `text` is what a person reads (it may span lines); `fields` are what a machine
 * reads; in JSON the text is `msg` unless `jsonMsg` gives a shorter one (a banner's layout is for eyes).
 */
export function consoleLine(
  format: ConsoleFormat,
  level: ConsoleLevel,
  text: string,
  fields: Record<string, unknown> = {},
  options: { jsonMsg?: string; now?: Date } = {},
): string {
  if (format === 'text') return text;
  return JSON.stringify({
    time: (options.now ?? new Date()).toISOString(),
    level,
    service: CONSOLE_SERVICE,
    ...fields,
    msg: options.jsonMsg ?? text,
  });
}

/** Prints lines in the chosen format: info to stdout, warn and error to stderr (as before). */
export function consolePrinter(format: ConsoleFormat) {
  return {
    format,
    info: (text: string, fields?: Record<string, unknown>, jsonMsg?: string) =>
      console.log(consoleLine(format, 'info', text, fields, { jsonMsg })),
    error: (text: string, fields?: Record<string, unknown>, jsonMsg?: string) =>
      console.error(consoleLine(format, 'error', text, fields, { jsonMsg })),
  };
}

export type ConsolePrinter = ReturnType<typeof consolePrinter>;
