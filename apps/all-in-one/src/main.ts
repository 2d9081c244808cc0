#!/usr/bin/env node
// First: a replay runs in a process of its own before the rest of this entry loads (see there).
import './cli/replay/replay-first.js';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadRuntimeConfig } from './config/runtime-config.js';
import { createApp, type RunningApp } from './create-app.js';
import { runStatementCommand } from './cli/statement/statement.command.js';
import {
  DEMO_BOOTSTRAP,
  DEMO_CALLBACK_ALLOWED_TARGETS,
  DEMO_CALLBACK_BASE,
  demoInstructions,
} from './provisioning/demo.js';
import {
  BootstrapFileError,
  assertBootstrapCallbackTargets,
  parseBootstrap,
  readBootstrapFile,
} from './provisioning/provisioner.js';
import { DataDirLockedError } from '@transfergate/event-store';
import { PrivateFileRefusedError, makePrivateDir, writePrivateFile } from '@transfergate/runtime/http';
import { DEMO_DEFAULT_HOST, MAIN_USAGE } from './cli/usage.js';
import { consoleFormatFrom, consolePrinter } from './cli/console-lines.js';

/**
 * The server's own lines (banner, stop lines) follow the log format: JSON lines with LOG_FORMAT=json,
 * and by default in production when stdout is not a terminal (consoleFormatFrom).
 */
const say = consolePrinter(consoleFormatFrom(process.env));

/** The generated admin password is also written here (mode 0600), inside DATA_DIR. */
const ADMIN_PASSWORD_FILE = 'admin-password';

/** `npm start`: all five services in one process on PORT, PGlite in DATA_DIR unless DATABASE_URL is set. */
async function main(): Promise<void> {
  // `transfergate statement …` prints a merchant statement from the event store, then exits.
  if (process.argv[2] === 'statement') process.exit(await runStatementCommand(process.argv.slice(3)));
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        bootstrap: { type: 'string' },
        demo: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${MAIN_USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(MAIN_USAGE);
    process.exit(0);
  }
  const config = loadRuntimeConfig(process.env, values.bootstrap ? { bootstrapFile: values.bootstrap } : {});
  // The demo's API keys and secrets are published in the README: unless HOST says otherwise, the
  // demo answers this machine only.
  if (values.demo && !process.env.HOST) config.host = DEMO_DEFAULT_HOST;
  // The demo's callback URLs point at a receiver on this machine (127.0.0.1:9999), which the egress
  // policy refuses by default: --demo allows loopback unless CALLBACK_ALLOWED_TARGETS says otherwise.
  if (values.demo && process.env.CALLBACK_ALLOWED_TARGETS === undefined) {
    config.callbackAllowedTargets = [...DEMO_CALLBACK_ALLOWED_TARGETS];
    say.info(`--demo: callbacks may reach ${DEMO_CALLBACK_ALLOWED_TARGETS.join(', ')} (CALLBACK_ALLOWED_TARGETS)`, {
      callbackAllowedTargets: DEMO_CALLBACK_ALLOWED_TARGETS,
    });
  }
  // Read the files before opening anything: a bad file stops the start with nothing half-applied.
  const files = [
    ...(config.bootstrapFile ? [readBootstrapFile(config.bootstrapFile)] : []),
    ...(values.demo ? [parseBootstrap(DEMO_BOOTSTRAP, '--demo')] : []),
  ];
  files.forEach((file, i) =>
    assertBootstrapCallbackTargets(
      file,
      i === 0 && config.bootstrapFile ? config.bootstrapFile : '--demo',
      config.callbackAllowedTargets ?? [],
    ),
  );
  const running = await createApp(config);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    say.info(`${signal}: draining in-flight requests, then exiting`, { signal });
    const force = setTimeout(() => {
      say.error(`shutdown did not finish within ${config.shutdownTimeoutMs} ms; exiting`, {
        shutdownTimeoutMs: config.shutdownTimeoutMs,
      });
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    try {
      await running.close();
      say.info('stopped', { signal });
      process.exit(0);
    } catch (error) {
      say.error(`shutdown failed: ${String(error)}`);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  for (const file of files) {
    const summary = await running.provision(file);
    say.info(`provisioning: ${summary.changed} records changed, ${summary.unchanged} already as declared`, {
      changed: summary.changed,
      unchanged: summary.unchanged,
    });
  }
  const admin = await running.ensureFirstAdmin();
  let passwordFile: string | undefined;
  if (admin.generatedPassword) {
    try {
      passwordFile = writeAdminPasswordFile(config.dataDir, admin.generatedPassword);
    } catch (error) {
      // A planted link is not followed; the password is still shown below, once.
      if (!(error instanceof PrivateFileRefusedError)) throw error;
      say.error(`${error.message} (the generated admin password is not written to a file)`);
    }
    // A JSON line goes to a log collector, where a password must never be: it names the file only.
    say.info(
      `
  First start: operator "admin" created with password ${admin.generatedPassword}
  (shown once${passwordFile ? `, also written to ${passwordFile}, mode 0600` : ''}; set ADMIN_PASSWORD to choose it)
`,
      { operator: 'admin', passwordFile },
      passwordFile
        ? `first start: operator "admin" created with a generated password, written to ${passwordFile} (mode 0600)`
        : 'first start: operator "admin" created with a generated password, not written to a file: set ADMIN_PASSWORD or reset it',
    );
  } else if (admin.created) {
    say.info('First start: operator "admin" created with ADMIN_PASSWORD', { operator: 'admin' });
  }

  await running.app.listen({ port: config.port, host: config.host });
  const baseUrl = `http://127.0.0.1:${config.port}`;
  const database = config.databaseUrl ? 'PostgreSQL server' : `PGlite in ${config.dataDir}`;
  say.info(`transfergate listening on ${config.host}:${config.port} (${database})`, {
    host: config.host,
    port: config.port,
    database: config.databaseUrl ? 'postgresql' : 'pglite',
  });
  if (values.demo) say.info(demoInstructions(baseUrl), { baseUrl }, 'demo data applied');
  // The logger writes asynchronously: what it still holds (the first admin's append, say) would
  // otherwise land after the banner, which must be the last thing a first start prints.
  await flushLogger(running.observability.logger, LOG_FLUSH_TIMEOUT_MS);
  const demoCallbacks = values.demo ? `${DEMO_CALLBACK_BASE}/{merchant,h2h,infra}/{deposit,withdrawal}` : undefined;
  say.info(
    readyBanner(baseUrl, admin, passwordFile, demoCallbacks),
    {
      api: baseUrl,
      docs: `${baseUrl}/docs`,
      panel: `${baseUrl}/admin/`,
      ...(passwordFile ? { adminPasswordFile: passwordFile } : {}),
      ...(demoCallbacks ? { demoCallbacks } : {}),
    },
    'transfergate is ready',
  );
}

const LOG_FLUSH_TIMEOUT_MS = 1_000;

/** Waits until the logger has written what it holds, at most `timeoutMs` (a start never hangs on it). */
async function flushLogger(logger: RunningApp['observability']['logger'], timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    new Promise<void>((resolve) => logger.flush(() => resolve())),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
  ]);
  clearTimeout(timer);
}

/**
 * The generated password would otherwise live only in a scrolled-away log (or a container's): it is
 * kept in DATA_DIR, readable by this user only. Its owner deletes it after changing the password.
 */
function writeAdminPasswordFile(dataDir: string, password: string): string {
  const file = join(dataDir, ADMIN_PASSWORD_FILE);
  makePrivateDir(dataDir);
  // Never through a symbolic or hard link someone planted in DATA_DIR (private-files.ts).
  writePrivateFile(file, `${password}\n`);
  return file;
}

// `transfergate replay …` audits the store instead of starting the server (cli/replay).
const startOrSubcommand =
  process.argv[2] === 'replay'
    ? import('./cli/replay/replay-command.js').then(async ({ runReplayCommand }) => {
        process.exit(await runReplayCommand(process.argv.slice(3)));
      })
    : main();

startOrSubcommand.catch((error) => {
  if (error instanceof ConfigError || error instanceof BootstrapFileError || error instanceof DataDirLockedError) {
    say.error(error.message);
    process.exit(2);
  }
  say.error(`transfergate failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

/** The last lines of a start: where everything is and how to sign in. */
function readyBanner(
  baseUrl: string,
  admin: { created: boolean; generatedPassword?: string },
  passwordFile: string | undefined,
  demoCallbacks: string | undefined,
): string {
  const signIn = admin.generatedPassword
    ? `admin / ${admin.generatedPassword} (generated, shown once)${passwordFile ? ` — also in ${passwordFile} (mode 0600)` : ''}`
    : admin.created
      ? 'admin / the ADMIN_PASSWORD you set'
      : 'your operator account (the first one is admin)';
  return [
    '',
    '  transfergate is ready',
    `    API            ${baseUrl}   (reference: ${baseUrl}/docs)`,
    `    Panel          ${baseUrl}/admin/`,
    `    Sign in as     ${signIn}`,
    // The demo's callbacks go to a receiver the integrator runs on this machine (docs/integrators.md).
    ...(demoCallbacks
      ? [`    Callbacks      ${demoCallbacks}   (demo: run a receiver on port ${new URL(DEMO_CALLBACK_BASE).port})`]
      : []),
    '',
  ].join('\n');
}
