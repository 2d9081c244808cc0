import { ClientKafka, ClientNats, ServerKafka, ServerNats } from '@nestjs/microservices';
import {
  createTransportClient,
  createTransportServer,
  TransportConfigError,
  transportConfigFrom,
} from '@transfergate/messaging';
import { ConfigError, loadServiceConfig, SERVICE_PORTS } from '@transfergate/runtime';

/**
 * Transport selection from the environment. Kafka is only constructed here (no broker runs on our
 * machines: nothing connects); NATS is exercised for real by remote-bus.spec.ts and distributed.spec.ts.
 */
describe('transport selection', () => {
  it('defaults to NATS on 127.0.0.1:4222 with a 10 s timeout and the transfergate prefix', () => {
    const config = transportConfigFrom({});
    expect(config).toMatchObject({
      kind: 'nats',
      natsUrl: 'nats://127.0.0.1:4222',
      subjectPrefix: 'transfergate',
      timeoutMs: 10_000,
    });
    expect(createTransportServer(config, 'ledger')).toBeInstanceOf(ServerNats);
    expect(createTransportClient(config, 'gateway-api', [])).toBeInstanceOf(ClientNats);
  });

  it('builds the Kafka server and client from KAFKA_BROKERS, and refuses TRANSPORT=kafka without brokers', () => {
    const config = transportConfigFrom({ TRANSPORT: 'kafka', KAFKA_BROKERS: 'kafka-0:9092,kafka-1:9092' });
    expect(config.kind).toBe('kafka');
    expect(createTransportServer(config, 'ledger')).toBeInstanceOf(ServerKafka);
    expect(createTransportClient(config, 'gateway-api', ['transfergate.command.X'])).toBeInstanceOf(ClientKafka);
    expect(() => transportConfigFrom({ TRANSPORT: 'kafka' })).toThrow(TransportConfigError);
    expect(() => transportConfigFrom({ TRANSPORT: 'kafka', KAFKA_BROKERS: 'no-port' })).toThrow(/host:port/);
  });

  it.each([
    [{ TRANSPORT: 'amqp' }, /TRANSPORT/],
    [{ NATS_URL: 'http://127.0.0.1:4222' }, /NATS_URL/],
    [{ MESSAGING_PREFIX: 'a.b' }, /MESSAGING_PREFIX/],
    [{ COMMAND_TIMEOUT_MS: '50' }, /COMMAND_TIMEOUT_MS/],
    [{ COMMAND_TIMEOUT_MS: '1e4' }, /COMMAND_TIMEOUT_MS/],
  ])('refuses %p by name', (env, message) => {
    expect(() => transportConfigFrom(env)).toThrow(TransportConfigError);
    expect(() => transportConfigFrom(env)).toThrow(message);
  });

  it('gives each service its fixed port, requires DATABASE_URL and accepts SECRET_KEY', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    const env = { DATABASE_URL: 'postgres://u@db:5432/tg', SECRET_KEY: key };
    expect(SERVICE_PORTS).toEqual({
      'gateway-api': 8080,
      ledger: 8081,
      'panel-api': 8082,
      'callback-dispatcher': 8083,
      'webhook-ingest': 8084,
    });
    const ledger = loadServiceConfig(env, 'ledger');
    expect(ledger.runtime.port).toBe(8081);
    expect(ledger.runtime.secretKey.equals(Buffer.alloc(32, 7))).toBe(true);
    expect(loadServiceConfig({ ...env, PORT: '9000' }, 'ledger').runtime.port).toBe(9000);
    expect(() => loadServiceConfig({ SECRET_KEY: key }, 'ledger')).toThrow(ConfigError);
    expect(() => loadServiceConfig({ ...env, DATABASE_SCHEMA: 'Bad-Schema' }, 'ledger')).toThrow(/DATABASE_SCHEMA/);
    expect(() => loadServiceConfig({ ...env, NATS_URL: 'x' }, 'ledger')).toThrow(/NATS_URL/);
  });
});
