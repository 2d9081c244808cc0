import { redactCredentialQuery } from '../http/credential-query.js';

/**
 * OpenTelemetry tracing, off unless the environment asks for it (OTEL_EXPORTER_OTLP_ENDPOINT,
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_TRACES_EXPORTER other than `none`). When off nothing
 * is imported and nothing is patched. The SDK reads the standard OTEL_* variables itself (protocol,
 * headers, sampler); the service name is OTEL_SERVICE_NAME, else the one given here.
 */
export function tracingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === 'true') return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim();
  if (exporter === 'none') return false;
  return Boolean(exporter || env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

export interface RunningTracing {
  shutdown(): Promise<void>;
}

/** Starts the NodeSDK with HTTP and pg instrumentation. Must run before `http`/`pg` users load. */
export async function startTracing(serviceName: string, env = process.env): Promise<RunningTracing | undefined> {
  if (!tracingEnabled(env)) return undefined;
  const [{ NodeSDK }, { HttpInstrumentation }, { PgInstrumentation }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-pg'),
  ]);
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME || serviceName,
    instrumentations: [
      // Scrapes and probes would drown the traces of real work.
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => /^\/(metrics|ready)(\?|$)/.test(request.url ?? ''),
        // url.query as the instrumentation records it would carry a GET's SecurityKey / ApiSecret; its own
        // redaction matches exact names only, so the start hook's attribute (applied last) replaces it.
        startIncomingSpanHook: (request) => {
          const url = 'url' in request && typeof request.url === 'string' ? request.url : '';
          const at = url.indexOf('?');
          return at < 0 ? {} : { 'url.query': redactCredentialQuery(url.slice(at + 1)) };
        },
      }),
      // Consumers poll the store several times a second: only queries inside traced work are spans.
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
