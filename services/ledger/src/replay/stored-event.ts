import type { AuditRow, GlobalPosition, RecordedEvent } from '@transfergate/event-store';

const UNPARSED: unique symbol = Symbol('unparsed');

/**
 * A stored event as the replay projects it. Data and metadata are parsed on first use, once: a
 * third of a ledger's events (approvals, expiries, payment reports) are folded without reading
 * their data, and only a few projections read the metadata. The stored text is jsonb's output, so
 * it always parses; parsing later never turns a failure into a success.
 */
export class StoredEvent implements RecordedEvent {
  readonly eventId: string;
  readonly streamId: string;
  readonly streamVersion: number;
  readonly type: string;
  readonly schemaVersion: number;
  readonly position: GlobalPosition;
  readonly createdAt: string;
  readonly hash?: string;
  private parsedData: unknown = UNPARSED;
  private parsedMetadata: Record<string, unknown> | typeof UNPARSED = UNPARSED;

  /** `row`'s data and metadata texts are read when first parsed (a reader's row decodes them then). */
  constructor(private readonly row: AuditRow) {
    this.eventId = row.eventId;
    this.streamId = row.streamId;
    this.streamVersion = row.streamVersion;
    this.type = row.type;
    this.schemaVersion = row.schemaVersion;
    this.position = row.position;
    this.createdAt = row.createdAt;
    if (row.hash) this.hash = row.hash;
  }

  get data(): unknown {
    if (this.parsedData === UNPARSED) this.parsedData = JSON.parse(this.row.dataText) as unknown;
    return this.parsedData;
  }

  get metadata(): Record<string, unknown> {
    if (this.parsedMetadata === UNPARSED)
      this.parsedMetadata = JSON.parse(this.row.metadataText) as Record<string, unknown>;
    return this.parsedMetadata;
  }
}
