/**
 * `node --import @transfergate/observability/tracing-preload app.js` (or
 * NODE_OPTIONS="--import @transfergate/observability/tracing-preload"): starts tracing before the
 * application's modules load, which ESM requires for the pg instrumentation (its loader hook only
 * sees modules imported after it is registered). Costs nothing when tracing is not switched on.
 * TRANSFERGATE_SERVICE names the service when OTEL_SERVICE_NAME is not set.
 */
import { register } from 'node:module';
import { startTracing, tracingEnabled } from './tracing.js';

if (tracingEnabled()) {
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const tracing = await startTracing(process.env.TRANSFERGATE_SERVICE || 'transfergate');
  // Spans still buffered are exported before the process ends.
  const flush = () => void tracing?.shutdown().catch(() => undefined);
  process.once('beforeExit', flush);
  process.once('SIGTERM', flush);
}
