import { loadOptionalAdapter } from '../optional-module.js';
import type { KurrentDbEventStore } from './kurrentdb-event-store.js';

/**
 * Opens the KurrentDB adapter from KURRENTDB_URL. The client (gRPC) takes about half a second to
 * load, so it is imported only here, on demand: the embedded and PostgreSQL paths never load it.
 */
export async function openKurrentDbEventStore(url: string): Promise<KurrentDbEventStore> {
  const { KurrentDbEventStore: Store } = await loadOptionalAdapter(
    '@kurrent/kurrentdb-client',
    'KURRENTDB_URL',
    () => import('./kurrentdb-event-store.js'),
  );
  return Store.connect(url);
}
