import { ProviderDirectoryChanged } from '../queries/queries.js';

/**
 * Notices that every process of a distributed deployment hears (the ledger's projection tells the
 * gateways their cached provider records may be stale). A notice carries no data, only its name: it
 * says "something you may have cached changed", so nothing about a record (a secret) crosses the wire.
 */
export const BROADCAST_NOTICES = [ProviderDirectoryChanged] as const;

/** Sends a notice to the other processes of the deployment; absent in the embedded app (one process). */
export interface ProcessNotices {
  /**
   * Resolves once the transport has taken the notice (NATS: flushed to the server; Kafka: acknowledged
   * by the broker), or after a bounded wait; never rejects. The other processes hear it asynchronously.
   */
  announce(notice: object): Promise<void>;
}

export const PROCESS_NOTICES = Symbol.for('transfergate.ProcessNotices');
