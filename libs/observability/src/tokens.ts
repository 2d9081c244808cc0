/** Nest injection tokens of the observability module. */
export const TRANSFERGATE_METRICS = 'transfergate:Metrics';
export const CONSUMER_LAG_SOURCE = 'transfergate:ConsumerLag';
export const READINESS_SETTINGS = 'transfergate:ReadinessSettings';
export const METRICS_TOKEN = 'transfergate:MetricsToken';
export const ROOT_LOGGER = 'transfergate:RootLogger';
