/** What a notice channel tells its owner. */
export interface NoticeChannelHandlers {
  /** A notice arrived from some process of the deployment (its name, as announced). */
  onNotice(name: string): void;
  /** The connection was lost or re-established: notices may have been missed meanwhile. */
  onGap(): void;
}

/**
 * One transport's broadcast: every listening process (not one of a group) gets each notice. Notices
 * are names without data, so the wire carries nothing about any record.
 */
export interface NoticeChannel {
  /** Connects; listens for `names` (an empty list: this process only announces). */
  start(names: readonly string[], handlers: NoticeChannelHandlers): Promise<void>;
  /** Resolves once the transport has the notice (NATS: flushed to the server; Kafka: acknowledged). */
  publish(name: string): Promise<void>;
  /**
   * Started and, as far as the transport's own events tell, connected now (readiness): while it is
   * not, the caches that notices keep fresh may be stale until their TTL runs out.
   */
  isConnected(): boolean;
  close(): Promise<void>;
}

/** The subject (NATS) or topic (Kafka) of one notice, under the deployment's prefix. */
export function noticeSubject(prefix: string, name: string): string {
  return `${prefix}.notice.${name}`;
}
