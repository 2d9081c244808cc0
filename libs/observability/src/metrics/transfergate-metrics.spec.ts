import {
  MAX_MERCHANT_LABELS,
  MAX_ROUTE_LABELS,
  TransfergateMetrics,
  boundedFailingCallbacks,
} from './transfergate-metrics.js';
import { requestIdFrom } from '../context/request-context.js';

describe('TransfergateMetrics label bounds', () => {
  it('keeps route patterns up to the bound, then folds the rest into "other"', async () => {
    const metrics = new TransfergateMetrics({ defaultMetrics: false });
    for (let i = 0; i < MAX_ROUTE_LABELS + 25; i++) metrics.observeHttp('GET', `/r${i}/:id`, 200, 0.01);
    metrics.observeHttp('BREW', undefined, 404, 0.01);
    const metric = await metrics.registry.getSingleMetric('transfergate_http_request_duration_seconds')!.get();
    // Histogram values carry the sample's name (…_bucket, …_sum, …_count).
    const series = metric.values as Array<{
      metricName?: string;
      labels: Record<string, string | number>;
      value: number;
    }>;
    const routes = new Set(series.map((s) => String(s.labels.route)));
    expect(routes.size).toBe(MAX_ROUTE_LABELS + 2);
    expect(routes.has('other')).toBe(true);
    expect(routes.has('unmatched')).toBe(true);
    const other = series.find((s) => s.metricName?.endsWith('_count') && s.labels.route === 'other');
    expect(other?.value).toBe(25);
    const unmatched = series.find((s) => s.metricName?.endsWith('_count') && s.labels.route === 'unmatched');
    expect(unmatched?.labels).toMatchObject({ method: 'OTHER', status_class: '4xx' });
  });

  it('serves empty database-backed series until sources are bound', async () => {
    const metrics = new TransfergateMetrics({ defaultMetrics: false });
    const text = await metrics.registry.metrics();
    expect(text).toContain('# TYPE transfergate_transactions gauge');
    expect(text).not.toMatch(/^transfergate_transactions\{/m);
    metrics.useSources({
      transactionCounts: async () => [{ form: 'h2h', type: 'deposit', state: 'approved', count: 7 }],
      callbackAttemptCounts: async () => [{ outcome: 'success', trigger: 'automatic', count: 3 }],
      consumerLag: async () => [{ consumer: 'c1', lagEvents: 5, lagSeconds: 1.5 }],
      statementLineCounts: async () => [{ state: 'matched', mode: 'auto', count: 4 }],
      failingCallbacks: async () => [
        { state: 'retrying', merchant: 'Acme', count: 2 },
        { state: 'failed', merchant: 'Acme', count: 1 },
      ],
      oldestOpenDepositAgeSeconds: async () => 42.5,
    });
    const bound = await metrics.registry.metrics();
    expect(bound).toContain('transfergate_transactions{form="h2h",type="deposit",state="approved"} 7');
    expect(bound).toContain('transfergate_callback_attempts_total{outcome="success",trigger="automatic"} 3');
    expect(bound).toContain('transfergate_subscription_lag_events{consumer="c1"} 5');
    expect(bound).toContain('transfergate_subscription_lag_seconds{consumer="c1"} 1.5');
    expect(bound).toContain('transfergate_statement_credit_lines{state="matched",mode="auto"} 4');
    expect(bound).toContain('transfergate_callbacks_failing{state="retrying",merchant="Acme"} 2');
    expect(bound).toContain('transfergate_callbacks_failing{state="failed",merchant="Acme"} 1');
    expect(bound).toContain('transfergate_oldest_open_deposit_age_seconds 42.5');
  });
});

describe('failing callbacks per merchant', () => {
  it('names at most MAX_MERCHANT_LABELS merchants, those failing most, and sums the rest under other', () => {
    const rows = Array.from({ length: MAX_MERCHANT_LABELS + 30 }, (_, i) => [
      { state: 'retrying' as const, merchant: `m${String(i).padStart(3, '0')}`, count: i + 1 },
      { state: 'failed' as const, merchant: `m${String(i).padStart(3, '0')}`, count: 1 },
    ]).flat();
    const series = boundedFailingCallbacks(rows);
    const merchants = new Set(series.map((s) => s.merchant));
    expect(merchants.size).toBe(MAX_MERCHANT_LABELS + 1);
    expect(merchants.has('other')).toBe(true);
    // The 30 merchants failing least (m000..m029) are summed: nothing is lost.
    const total = (list: Array<{ count: number }>) => list.reduce((sum, s) => sum + s.count, 0);
    expect(total(series)).toBe(total(rows));
    expect(series.find((s) => s.merchant === 'other' && s.state === 'failed')?.count).toBe(30);
    expect(merchants.has('m079')).toBe(true);
    expect(merchants.has('m029')).toBe(false);
    // Merchants without failing callbacks get no series at all.
    expect(boundedFailingCallbacks([{ state: 'failed', merchant: 'quiet', count: 0 }])).toEqual([]);
  });
});

describe('request ids', () => {
  it('keeps a sane caller id and replaces anything else with a UUID', () => {
    expect(requestIdFrom('abc-123')).toBe('abc-123');
    expect(requestIdFrom(['first-id', 'second'])).toBe('first-id');
    for (const bad of [undefined, '', 'a b', 'x'.repeat(129), 'new\nline', '<script>']) {
      expect(requestIdFrom(bad)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });
});
