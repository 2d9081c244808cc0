import type { LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';

/**
 * Nest's logger interface over pino: every `new Logger('X').log(...)` in the services becomes a
 * JSON line with `context: "X"`. An object message is merged into the line (so services can log
 * fields such as `requestId` or `deliveryId`); a string message becomes `msg`.
 */
/**
 * Nest's start-up chatter (one line per module, per controller and per mapped route: several
 * hundred) is debug: at info a newcomer's first screen would be nothing else.
 */
const START_UP_CONTEXTS = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
  'NestApplication',
]);

export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(
    requested: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal',
    message: unknown,
    params: unknown[],
  ) {
    // Nest passes the logger's name last; Logger.error(message, stack, context) puts a stack before it.
    const context = params.length > 0 && typeof params[params.length - 1] === 'string' ? params.at(-1) : undefined;
    const level = requested === 'info' && START_UP_CONTEXTS.has(String(context)) ? 'debug' : requested;
    if (!this.logger.isLevelEnabled(level)) return;
    const stack = level === 'error' && params.length > 1 && typeof params[0] === 'string' ? params[0] : undefined;
    const fields: Record<string, unknown> = {};
    if (context) fields.context = context;
    if (stack) fields.stack = stack;
    if (message instanceof Error) {
      this.logger[level]({ ...fields, err: message }, message.message);
    } else if (message !== null && typeof message === 'object') {
      const { msg, message: text, ...rest } = message as Record<string, unknown>;
      this.logger[level]({ ...fields, ...rest }, String(msg ?? text ?? ''));
    } else {
      this.logger[level](fields, String(message));
    }
  }
}
