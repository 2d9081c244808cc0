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

/**
 * The span exporter the environment asks for. Only OTLP over HTTP is bundled (protobuf, the OTLP
 * default, or JSON) plus `console`: the gRPC exporters and the NodeSDK that pulls them in weighed
 * 175 MB of the image for a transport nobody here used. Anything else stops the start with a message.
 */
export function traceExporterKind(env: NodeJS.ProcessEnv = process.env): 'otlp-proto' | 'otlp-json' | 'console' {
  const exporter = env.OTEL_TRACES_EXPORTER?.split(',')[0]?.trim() || 'otlp';
  if (exporter === 'console') return 'console';
  if (exporter !== 'otlp') {
    throw new Error(`OTEL_TRACES_EXPORTER=${exporter} is not supported: use otlp (OTLP over HTTP) or console`);
  }
  const protocol = (
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ||
    env.OTEL_EXPORTER_OTLP_PROTOCOL ||
    'http/protobuf'
  ).trim();
  if (protocol === 'http/protobuf') return 'otlp-proto';
  if (protocol === 'http/json') return 'otlp-json';
  throw new Error(
    `OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported: use http/protobuf or http/json (OTLP over HTTP, port 4318)`,
  );
}

/**
 * Starts a tracer provider with HTTP and pg instrumentation. Must run before `http`/`pg` users load.
 * The provider reads the standard OTEL_* variables (sampler, batch processor, exporter endpoint and
 * headers, resource attributes) as the NodeSDK did.
 */
export async function startTracing(serviceName: string, env = process.env): Promise<RunningTracing | undefined> {
  if (!tracingEnabled(env)) return undefined;
  const kind = traceExporterKind(env);
  const [traceNode, resources, { registerInstrumentations }, { HttpInstrumentation }, { PgInstrumentation }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/instrumentation'),
      import('@opentelemetry/instrumentation-http'),
      import('@opentelemetry/instrumentation-pg'),
    ]);
  const exporter =
    kind === 'console'
      ? new traceNode.ConsoleSpanExporter()
      : kind === 'otlp-json'
        ? new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter()
        : new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter();
  const resource = resources
    .defaultResource()
    .merge(resources.detectResources({ detectors: [resources.envDetector] }))
    .merge(resources.resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || serviceName }));
  const provider = new traceNode.NodeTracerProvider({
    resource,
    spanProcessors: [new traceNode.BatchSpanProcessor(exporter)],
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
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
  return { shutdown: () => provider.shutdown() };
}
