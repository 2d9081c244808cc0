/**
 * What the server prints on its own (the start banner, provisioning summaries, the stop lines): text
 * for a person at a terminal, or one JSON line each, shaped like the log lines (`time`, `level`,
 * `service`, `msg` and named fields), when the logs go to a collector, so that it parses every line
 * of the process.
 */
export type ConsoleFormat = 'text' | 'json';

export type ConsoleLevel = 'info' | 'warn' | 'error';

/**
 * The format of the server's own lines. `LOG_FORMAT=json` or `text` decides; without it, JSON when a
 * production process (NODE_ENV=production, as the Docker image sets it) writes to something that is
 * not a terminal (a container's log, a pipe, a file), where the log lines are JSON too; text otherwise
 * (a person at a terminal, or running it by hand in development, where the banner shows the generated
 * admin password).
 */
export function consoleFormatFrom(
  env: NodeJS.ProcessEnv,
  stdoutIsTerminal = Boolean(process.stdout.isTTY),
): ConsoleFormat {
  if (env.LOG_FORMAT === 'json') return 'json';
  if (env.LOG_FORMAT === 'text') return 'text';
  return env.NODE_ENV === 'production' && !stdoutIsTerminal ? 'json' : 'text';
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
