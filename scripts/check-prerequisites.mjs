#!/usr/bin/env node
// `npm test` runs this first: the suites need a PostgreSQL server, a NATS server and Chromium on this
// machine. Each missing one is named in one line with the command that starts or installs it, and the
// run stops here (exit 1) instead of failing dozens of tests with stack traces.
// Overrides (tests of this script, other machines): TEST_DATABASE_URL, NATS_URL, CHROMIUM_PATH.
// Kafka is optional (its suites skip without KAFKA_BROKERS) unless REQUIRE_KAFKA=1, as in CI: then the
// broker in KAFKA_BROKERS must answer too.
import { accessSync, constants, readdirSync } from 'node:fs';
import { Socket } from 'node:net';

const CONNECT_TIMEOUT_MS = 1_500;

function reachable(host, port) {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(CONNECT_TIMEOUT_MS, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, host, () => done(true));
  });
}

function hostPort(url, defaultPort) {
  const parsed = new URL(url);
  return { host: parsed.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1', port: Number(parsed.port || defaultPort) };
}

function postgresVersion() {
  try {
    return readdirSync('/etc/postgresql')[0] ?? '<version>';
  } catch {
    return '<version>';
  }
}

const database = hostPort(process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test', 5432);
const nats = hostPort((process.env.NATS_URL || 'nats://127.0.0.1:4222').split(',')[0], 4222);
const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

const missing = [];
if (!(await reachable(database.host, database.port))) {
  missing.push(
    `PostgreSQL is not answering on ${database.host}:${database.port}: start it with ` +
      `\`pg_ctlcluster --skip-systemctl-redirect ${postgresVersion()} main start\` (trust auth, database "test")`,
  );
}
if (!(await reachable(nats.host, nats.port))) {
  missing.push(
    `NATS is not answering on ${nats.host}:${nats.port}: start it with ` +
      `\`nats-server -a ${nats.host} -p ${nats.port} -js -sd /var/lib/nats-server &\` (apt-get install -y nats-server)`,
  );
}
try {
  accessSync(chromium, constants.X_OK);
} catch {
  missing.push(`Chromium is not installed at ${chromium}: install it with \`apt-get install -y chromium\``);
}

const requireKafka = process.env.REQUIRE_KAFKA === '1';
const kafkaBroker = (process.env.KAFKA_BROKERS || '').split(',')[0].trim();
if (requireKafka && kafkaBroker === '') {
  missing.push(
    'Kafka (REQUIRE_KAFKA=1) but KAFKA_BROKERS is not set: `npm run kafka:local`, then KAFKA_BROKERS=127.0.0.1:9092',
  );
} else if (kafkaBroker !== '') {
  const kafka = hostPort(`kafka://${kafkaBroker}`, 9092);
  if (requireKafka && !(await reachable(kafka.host, kafka.port))) {
    missing.push(`Kafka is not answering on ${kafka.host}:${kafka.port}: start it with \`npm run kafka:local\``);
  }
}

if (missing.length > 0) {
  for (const line of missing) console.error(`npm test needs: ${line}`);
  process.exit(1);
}
console.log('prerequisites: PostgreSQL, NATS and Chromium found');
