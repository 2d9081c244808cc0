import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OptionalModuleMissingError, loadOptionalAdapter } from './optional-module.js';

describe('optional adapters (KurrentDB, MongoDB)', () => {
  it('a missing client is named with the variable that asked for it and the install command', async () => {
    const missing: string = '@transfergate/no-such-client';
    await expect(loadOptionalAdapter(missing, 'KURRENTDB_URL', () => import(missing))).rejects.toThrow(
      new OptionalModuleMissingError(
        'KURRENTDB_URL is set, but @transfergate/no-such-client is not installed (an optional dependency the image leaves out): npm install @transfergate/no-such-client',
      ),
    );
  });

  it('another failure while loading is not disguised', async () => {
    const boom = new Error('the adapter threw');
    await expect(loadOptionalAdapter('mongodb', 'MONGODB_URL', () => Promise.reject(boom))).rejects.toBe(boom);
  });

  it('the clients are optional peer dependencies, not runtime dependencies (production installs leave them out)', () => {
    const read = (path: string) => JSON.parse(readFileSync(join(process.cwd(), path, 'package.json'), 'utf8'));
    const eventStore = read('libs/event-store');
    expect(eventStore.dependencies['@kurrent/kurrentdb-client']).toBeUndefined();
    expect(eventStore.peerDependenciesMeta['@kurrent/kurrentdb-client']).toEqual({ optional: true });
    const ledger = read('services/ledger');
    expect(ledger.dependencies.mongodb).toBeUndefined();
    expect(ledger.peerDependenciesMeta.mongodb).toEqual({ optional: true });
    // The panel's React/MUI/recharts are needed to build it only.
    const panel = read('apps/panel-web');
    expect(panel.dependencies).toBeUndefined();
    expect(Object.keys(panel.devDependencies)).toEqual(expect.arrayContaining(['react', '@mui/material', 'recharts']));
    // Tracing ships OTLP over HTTP only: no NodeSDK (it pulls in the gRPC exporters).
    expect(read('libs/observability').dependencies['@opentelemetry/sdk-node']).toBeUndefined();
  });
});
