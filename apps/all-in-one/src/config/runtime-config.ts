// The runtime configuration is shared by the embedded app and the service processes (libs/runtime).
export { ConfigError, loadRuntimeConfig, type RuntimeConfig } from '@transfergate/runtime/http';
