// Bundles the embedded default's entry (`npm start`, the image's CMD, the `transfergate` bin) into
// one file: apps/all-in-one/dist/main.js is replaced by the bundle of itself and everything it
// imports. Run by @transfergate/all-in-one's build, after swc has compiled src to dist.
//
// Why: Node 20 resolves, reads and compiles each of the ~1,650 module files the gateway loads one by
// one (it has no compile cache before Node 22), and that is 1.4-2.0 s of a cold start of 3.9-5 s on
// the 2-core machine. The bundle loads in about a third of that. Every other entry (the five services'
// main.js, provision-main.js, the library modules the tests import) stays as swc compiled it.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'apps/all-in-one/dist/main.js');

/**
 * Loaded by Node at run time, as without the bundle:
 * - the event store: its worker script and its PGlite template are found from its own files
 *   (import.meta.url), and its drivers (PGlite's WASM, pg) load only when configured;
 * - OpenTelemetry: one API instance shared with the tracing preload, whose hooks patch modules that
 *   Node's loader loads;
 * - pino: its transports start worker files from its own folder;
 * - the rest load only when configured: the message brokers' clients (distributed mode), and
 *   optional peers an install may not carry (KurrentDB, MongoDB, Nest's optional packages, native
 *   addons), which their users require inside the try/catch they already put around them.
 */
const EXTERNAL = [
  '@transfergate/event-store',
  '@electric-sql/pglite',
  'pg',
  'pg-native',
  'pg-copy-streams',
  'tar',
  '@opentelemetry/*',
  'pino',
  'pino-pretty',
  '@kurrent/*',
  'mongodb',
  '@nestjs/websockets',
  '@nestjs/websockets/*',
  '@nestjs/platform-express',
  '@fastify/static',
  '@fastify/view',
  '@fastify/multipart',
  'class-validator',
  'class-transformer',
  'kafkajs',
  '@nats-io/*',
  'nats',
  'amqplib',
  'amqp-connection-manager',
  'ioredis',
  'mqtt',
  '*.node',
];

/**
 * Packages both inside the bundle and loaded by an external one: Node then holds two copies. Only
 * stateless ones may be (a second copy of a package with module state, a registry or a class that
 * `instanceof` checks, would split it in two).
 */
const STATELESS_TWICE = new Set(['uuid']);

const BANNER =
  "import { createRequire as __transfergateCreateRequire } from 'node:module'; const require = __transfergateCreateRequire(import.meta.url);";
// The entry must be swc's output: bundling the bundle again would pass for a build and check nothing.
if (readFileSync(entry, 'utf8').includes(BANNER)) {
  throw new Error(`bundle-all-in-one: ${entry} is a bundle already; run the all-in-one build (swc first)`);
}

const result = await build({
  entryPoints: [entry],
  outfile: entry,
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // swc's maps are read in, so --enable-source-maps still points at the TypeScript.
  sourcemap: true,
  // Names stay what swc gave them: esbuild renames a class whose name another module also uses
  // (InstanceLoader → _InstanceLoader), and Nest's log contexts, our loggers' and error messages read
  // `.name`.
  keepNames: true,
  metafile: true,
  logLevel: 'warning',
  external: EXTERNAL,
  // The CommonJS packages inside call require() for Node's built-ins and for the externals above.
  banner: { js: BANNER },
});

const bundled = new Set();
for (const input of Object.keys(result.metafile.inputs)) {
  const match = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (match) bundled.add(match[1]);
}
// The bundle's point is that Nest and the framework are inside it, once.
for (const required of ['@nestjs/core', '@nestjs/common', 'fastify', 'rxjs', 'zod']) {
  if (!bundled.has(required)) throw new Error(`bundle-all-in-one: ${required} is not in the bundle`);
}
const eventStoreDeps = Object.keys(
  JSON.parse(readFileSync(join(root, 'libs/event-store/package.json'), 'utf8')).dependencies ?? {},
);
const twice = eventStoreDeps.filter((name) => bundled.has(name) && !STATELESS_TWICE.has(name));
if (twice.length > 0) {
  throw new Error(`bundle-all-in-one: ${twice.join(', ')} would be loaded twice (bundled and by the event store)`);
}
