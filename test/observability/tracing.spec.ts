import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { traceExporterKind, tracingEnabled } from '@transfergate/observability';
import { TEST_DATABASE_URL } from '../support/postgres.js';
import { freePort } from '../support/free-port.js';

/**
 * Tracing for real: the built app (`node --import @transfergate/observability/tracing-preload
 * apps/all-in-one/dist/main.js`, as docs/operations.md tells ops to run it) on PostgreSQL, exporting
 * OTLP/HTTP JSON to a receiver this test runs. Needs `npm run build` first (npm test builds).
 */
const MAIN = resolve('apps/all-in-one/dist/main.js');
const PRELOAD = resolve('libs/observability/dist/tracing/preload.js');

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: Array<{ key: string; value: Record<string, unknown> }>;
}
interface ExportedSpan extends OtlpSpan {
  service: string | undefined;
}

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes?.find((a) => a.key === key)?.value;
  return value ? Object.values(value)[0] : undefined;
};

describe('OpenTelemetry tracing', () => {
  it('is off unless the environment switches it on', () => {
    expect(tracingEnabled({})).toBe(false);
    expect(tracingEnabled({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x' })).toBe(false);
    expect(tracingEnabled({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x' })).toBe(false);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toBe(true);
    expect(tracingEnabled({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
  });

  it('exports OTLP over HTTP only (protobuf by default, JSON on request); gRPC and others are refused by name', () => {
    expect(traceExporterKind({})).toBe('otlp-proto');
    expect(traceExporterKind({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toBe('otlp-json');
    expect(
      traceExporterKind({ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }),
    ).toBe('otlp-json');
    expect(traceExporterKind({ OTEL_TRACES_EXPORTER: 'console' })).toBe('console');
    expect(() => traceExporterKind({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      'OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported: use http/protobuf or http/json (OTLP over HTTP, port 4318)',
    );
    expect(() => traceExporterKind({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(
      /OTEL_TRACES_EXPORTER=zipkin is not supported/,
    );
  });

  describe('exporting to a local OTLP/HTTP receiver', () => {
    const spans: ExportedSpan[] = [];
    const schema = `t_otel_${randomBytes(5).toString('hex')}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'tg-otel-'));
    let receiver: Server;
    let child: ChildProcess | undefined;
    let output = '';

    beforeAll(async () => {
      receiver = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          if (req.url === '/v1/traces' && req.method === 'POST') {
            const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
              resourceSpans: Array<{
                resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
                scopeSpans: Array<{ spans: OtlpSpan[] }>;
              }>;
            };
            for (const resourceSpans of body.resourceSpans) {
              const service = resourceSpans.resource.attributes.find((a) => a.key === 'service.name')?.value
                .stringValue;
              for (const scope of resourceSpans.scopeSpans)
                for (const span of scope.spans) spans.push({ ...span, service });
            }
          }
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{}');
        });
      });
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      await admin.end();
    });

    afterAll(async () => {
      if (child && child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child!.once('exit', r));
      }
      await new Promise((r) => receiver.close(r));
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('sends the spans of a gateway request, with its database queries in the same trace', async () => {
      expect(existsSync(MAIN) && existsSync(PRELOAD)).toBe(true);
      const url = new URL(TEST_DATABASE_URL);
      url.searchParams.set('options', `-c search_path=${schema}`);
      const port = await freePort();
      child = spawn(process.execPath, ['--import', '@transfergate/observability/tracing-preload', MAIN], {
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          DATABASE_URL: url.toString(),
          TRANSFERGATE_SECRET_KEY: randomBytes(32).toString('base64'),
          ADMIN_PASSWORD: 'Otel-test-password',
          LOG_LEVEL: 'debug',
          LOG_FORMAT: 'json',
          OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          OTEL_SERVICE_NAME: 'transfergate-test',
          OTEL_BSP_SCHEDULE_DELAY: '200',
          OTEL_METRICS_EXPORTER: 'none',
          OTEL_LOGS_EXPORTER: 'none',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (d) => (output += d));
      child.stderr!.on('data', (d) => (output += d));

      const deadline = Date.now() + 60_000;
      let banks: Response | undefined;
      while (!banks) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the app did not start:\n${output}`);
        banks = await fetch(`http://127.0.0.1:${port}/banks`).catch(() => undefined);
        if (!banks) await new Promise((r) => setTimeout(r, 200));
      }
      expect(banks.status).toBe(200);
      const requestId = banks.headers.get('x-request-id');
      expect(requestId).toBeTruthy();

      const serverSpan = () =>
        spans.find((s) => s.kind === 2 && attribute(s, 'http.route') === '/banks' && s.name.startsWith('GET'));
      while (!serverSpan()) {
        if (Date.now() > deadline) {
          const servers = spans.filter((s) => s.kind === 2).map((s) => [s.name, s.attributes]);
          throw new Error(`no server span for GET /banks: ${JSON.stringify(servers)}\n${output}`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      const server = serverSpan()!;
      expect(server.service).toBe('transfergate-test');
      expect(attribute(server, 'transfergate.request_id')).toBe(requestId);
      expect(attribute(server, 'http.response.status_code') ?? attribute(server, 'http.status_code')).toBe(200);
      const queriesOfRequest = () => spans.filter((s) => s.traceId === server.traceId && s.name.startsWith('pg.query'));
      while (queriesOfRequest().length === 0) {
        if (Date.now() > deadline) {
          throw new Error(
            `no pg span in trace ${server.traceId}: ${JSON.stringify(spans.map((s) => [s.name, s.traceId]))}`,
          );
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(queriesOfRequest().every((s) => s.service === 'transfergate-test')).toBe(true);
      // Probes and scrapes are not traced.
      await fetch(`http://127.0.0.1:${port}/metrics`);
      await fetch(`http://127.0.0.1:${port}/ready`);
      await new Promise((r) => setTimeout(r, 600));
      expect(spans.some((s) => ['/metrics', '/ready'].includes(String(attribute(s, 'http.route'))))).toBe(false);

      // Credentials in a GET's query string never reach a span or a log line (the app logs at debug here).
      const secrets = {
        SecurityKey: `sk-${randomBytes(12).toString('hex')}`,
        ApiSecret: `as-${randomBytes(12).toString('hex')}`,
        hash: `h-${randomBytes(12).toString('hex')}`,
      };
      const query = new URLSearchParams({
        ApiKey: 'ak_trace_probe',
        OperationGuid: '3f2b8c1e-5d4a-4c3b-9a8f-000000000001',
        RequestId: 'TRACE-1',
        Amount: '10',
        ...secrets,
        securitykey: secrets.SecurityKey,
      });
      await fetch(`http://127.0.0.1:${port}/deposits/deposit-request?${query}`);
      const infraSpan = () =>
        spans.find((s) => s.kind === 2 && attribute(s, 'http.route') === '/deposits/deposit-request');
      while (!infraSpan()) {
        if (Date.now() > deadline) throw new Error(`no server span for the GET deposit request\n${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const recorded = new URLSearchParams(String(attribute(infraSpan()!, 'url.query')));
      expect(Object.fromEntries(recorded)).toMatchObject({
        ApiKey: 'REDACTED',
        OperationGuid: '3f2b8c1e-5d4a-4c3b-9a8f-000000000001',
        RequestId: 'TRACE-1',
        SecurityKey: 'REDACTED',
        securitykey: 'REDACTED',
        ApiSecret: 'REDACTED',
        hash: 'REDACTED',
      });
      const everything = JSON.stringify(spans) + output;
      for (const value of Object.values(secrets)) expect(everything).not.toContain(value);
      expect(output).toContain('request completed');
    }, 90_000);
  });
});
