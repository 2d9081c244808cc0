#!/usr/bin/env node
/**
 * A real single-node Apache Kafka broker (KRaft: broker and controller in one JVM, no ZooKeeper) on
 * loopback, built from Kafka's own Maven Central artifacts. No Docker, no download from anywhere but
 * Maven Central through the machine's `mvn`.
 *
 *   npm run kafka:local                   start on 127.0.0.1:9092 (controller 9093), wait until it answers
 *   npm run kafka:local -- stop           stop it (SIGTERM, SIGKILL after 30 s)
 *   npm run kafka:local -- status         exit 0 when running and answering, 1 otherwise
 *   ... -- start --port 19092             a second broker (controller on port + 1), e.g. for a test
 *                                         that restarts its broker without disturbing the shared one
 *
 * The jars are copied once per machine into ~/.cache/transfergate/kafka-<version>/libs
 * (TRANSFERGATE_CACHE_DIR overrides ~/.cache/transfergate); the version is pinned in
 * scripts/kafka/pom.xml. The broker's state (KRaft metadata, topics, pid file, log) lives in
 * <cache>/kafka-local-<port>/ and survives a restart, as a real broker's would.
 */
import { spawn, spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HOST = '127.0.0.1';
const READY_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 30_000;
/** The JVM shares small machines with the test suite: a bounded heap. */
const JVM_OPTIONS = ['-Xms128m', '-Xmx512m', '-XX:+UseG1GC', '-Djava.awt.headless=true'];

const here = dirname(fileURLToPath(import.meta.url));
const pomPath = join(here, 'kafka', 'pom.xml');
const kafkaVersion = /<kafka\.version>([^<]+)<\/kafka\.version>/.exec(readFileSync(pomPath, 'utf8'))?.[1];
if (!kafkaVersion) fail(`no <kafka.version> in ${pomPath}`);

const { command, port } = parseArguments(process.argv.slice(2));
const cacheRoot = process.env.TRANSFERGATE_CACHE_DIR || join(homedir(), '.cache', 'transfergate');
const libsDir = join(cacheRoot, `kafka-${kafkaVersion}`, 'libs');
const stateDir = join(cacheRoot, `kafka-local-${port}`);
const pidFile = join(stateDir, 'kafka.pid');
const logFile = join(stateDir, 'kafka.log');

if (command === 'start') await start();
else if (command === 'stop') await stop();
else process.exit((await answers()) ? 0 : 1);

function parseArguments(args) {
  let command = 'start';
  let port = 9092;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === 'start' || arg === 'stop' || arg === 'status') command = arg;
    else if (arg === '--port') port = Number(args[(i += 1)]);
    else fail(`unknown argument "${arg}" (use start | stop | status [--port N])`);
  }
  if (!Number.isInteger(port) || port < 1024 || port > 65_534) fail('--port must be an integer 1024..65534');
  return { command, port };
}

async function start() {
  const running = runningPid();
  if (running && (await answers())) {
    console.log(`kafka-local: already running (pid ${running}) on ${HOST}:${port}`);
    return;
  }
  if (running) fail(`pid ${running} in ${pidFile} is a Kafka that does not answer; stop it first`);
  if (await tcpAnswers(port)) fail(`${HOST}:${port} is taken by something that is not this script's broker`);
  ensureLibs();
  mkdirSync(stateDir, { recursive: true });
  const propertiesPath = writeServerProperties();
  formatStorageOnce(propertiesPath);

  const log = openSync(logFile, 'a');
  const child = spawn(
    'java',
    [
      ...JVM_OPTIONS,
      `-Dlog4j2.configurationFile=${join(here, 'kafka', 'log4j2.properties')}`,
      `-Dkafka.logs.dir=${stateDir}`,
      '-cp',
      `${libsDir}/*`,
      'kafka.Kafka',
      propertiesPath,
    ],
    { detached: true, stdio: ['ignore', log, log] },
  );
  closeSync(log);
  writeFileSync(pidFile, `${child.pid}\n`);
  child.unref();
  console.log(`kafka-local: Kafka ${kafkaVersion} starting (pid ${child.pid}), log ${logFile}`);

  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await answers())) {
    if (runningPid() === undefined) fail(`the broker exited during start-up:\n${logTail()}`);
    if (Date.now() > deadline) {
      process.kill(child.pid, 'SIGKILL');
      fail(`the broker did not answer within ${READY_TIMEOUT_MS} ms:\n${logTail()}`);
    }
    await sleep(500);
  }
  console.log(`kafka-local: ready on ${HOST}:${port} (KAFKA_BROKERS=${HOST}:${port})`);
}

async function stop() {
  const pid = runningPid();
  if (pid === undefined) {
    console.log(`kafka-local: not running on ${HOST}:${port}`);
    rmSync(pidFile, { force: true });
    return;
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (isAlive(pid) && Date.now() < deadline) await sleep(200);
  if (isAlive(pid)) {
    console.log(`kafka-local: pid ${pid} still running after ${STOP_TIMEOUT_MS} ms, SIGKILL`);
    process.kill(pid, 'SIGKILL');
    while (isAlive(pid)) await sleep(100);
  }
  rmSync(pidFile, { force: true });
  console.log(`kafka-local: stopped (pid ${pid})`);
}

/** Copies the broker's jars from Maven Central once per machine; a marker file says the copy is whole. */
function ensureLibs() {
  const marker = join(libsDir, '.complete');
  if (existsSync(marker)) return;
  console.log(`kafka-local: fetching Kafka ${kafkaVersion} from Maven Central into ${libsDir} (once per machine)`);
  rmSync(libsDir, { recursive: true, force: true });
  const result = spawnSync(
    'mvn',
    [
      '-q',
      '-B',
      '-Dstyle.color=never',
      '-f',
      pomPath,
      'dependency:copy-dependencies',
      `-DoutputDirectory=${libsDir}`,
      '-DincludeScope=runtime',
    ],
    { stdio: 'inherit' },
  );
  if (result.error) fail(`could not run mvn: ${result.error.message}`);
  if (result.status !== 0) fail(`mvn could not fetch Kafka ${kafkaVersion}'s artifacts (exit ${result.status})`);
  const jars = readdirSync(libsDir).filter((name) => name.endsWith('.jar'));
  if (!jars.includes(`kafka_2.13-${kafkaVersion}.jar`)) fail(`kafka_2.13-${kafkaVersion}.jar missing after mvn`);
  writeFileSync(marker, `${jars.length} jars\n`);
}

function writeServerProperties() {
  const controllerPort = port + 1;
  const properties = {
    'process.roles': 'broker,controller',
    'node.id': '1',
    'controller.quorum.voters': `1@${HOST}:${controllerPort}`,
    listeners: `PLAINTEXT://${HOST}:${port},CONTROLLER://${HOST}:${controllerPort}`,
    'advertised.listeners': `PLAINTEXT://${HOST}:${port}`,
    'controller.listener.names': 'CONTROLLER',
    'inter.broker.listener.name': 'PLAINTEXT',
    'listener.security.protocol.map': 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    'log.dirs': join(stateDir, 'data'),
    // Several partitions per topic, as in production: the reply-group logic is exercised for real.
    'num.partitions': '3',
    // The transport's topics (one per message type and prefix) are created on first use.
    'auto.create.topics.enable': 'true',
    // One node: internal topics cannot have more replicas than that.
    'offsets.topic.replication.factor': '1',
    'offsets.topic.num.partitions': '10',
    'transaction.state.log.replication.factor': '1',
    'transaction.state.log.min.isr': '1',
    'share.coordinator.state.topic.replication.factor': '1',
    'share.coordinator.state.topic.min.isr': '1',
    // Tests start consumer groups all the time: no 3 s wait before the first rebalance.
    'group.initial.rebalance.delay.ms': '0',
    // Test topics pile up (a prefix per run): keep a day of data, in small segments.
    'log.retention.hours': '24',
    'log.segment.bytes': String(16 * 1024 * 1024),
  };
  const path = join(stateDir, 'server.properties');
  writeFileSync(
    path,
    Object.entries(properties)
      .map(([key, value]) => `${key}=${value}\n`)
      .join(''),
  );
  return path;
}

/** KRaft storage is formatted once with a fresh cluster id; later starts keep the broker's data. */
function formatStorageOnce(propertiesPath) {
  if (existsSync(join(stateDir, 'data', 'meta.properties'))) return;
  // A Kafka Uuid: 16 random bytes, base64url without padding.
  const clusterId = randomBytes(16).toString('base64url');
  const result = spawnSync(
    'java',
    [
      `-Dlog4j2.configurationFile=${join(here, 'kafka', 'log4j2.properties')}`,
      '-cp',
      `${libsDir}/*`,
      'kafka.tools.StorageTool',
      'format',
      '--cluster-id',
      clusterId,
      '--config',
      propertiesPath,
    ],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) fail(`formatting KRaft storage failed:\n${result.stdout}${result.stderr}`);
  console.log(`kafka-local: formatted ${join(stateDir, 'data')} (cluster id ${clusterId})`);
}

/** The pid in the pid file, when that process is alive and is a Kafka broker. */
function runningPid() {
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  if (!Number.isInteger(pid) || pid < 1 || !isAlive(pid)) return undefined;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('kafka.Kafka') ? pid : undefined;
  } catch {
    return pid; // no /proc (not Linux): trust the pid file
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The broker answers a Kafka client: the port is open and an admin client can list topics. */
async function answers() {
  if (!(await tcpAnswers(port))) return false;
  const { Kafka, logLevel } = createRequire(import.meta.url)('kafkajs');
  const admin = new Kafka({
    clientId: 'kafka-local',
    brokers: [`${HOST}:${port}`],
    logLevel: logLevel.NOTHING,
    retry: { retries: 0 },
    connectionTimeout: 2_000,
    requestTimeout: 5_000,
  }).admin();
  try {
    await admin.connect();
    await admin.listTopics();
    return true;
  } catch {
    return false;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

function tcpAnswers(portNumber) {
  return new Promise((resolve) => {
    const socket = connect({ host: HOST, port: portNumber });
    const done = (result) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(1_000);
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

function logTail() {
  if (!existsSync(logFile)) return '(no log)';
  return readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n');
}

function fail(message) {
  console.error(`kafka-local: ${message}`);
  process.exit(1);
}
