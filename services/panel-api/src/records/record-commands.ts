import { Injectable } from '@nestjs/common';
import { CommandBus, QueryBus, type Command } from '@nestjs/cqrs';
import {
  DomainError,
  GetRecordQuery,
  RecordIdSchema,
  ListRecordsQuery,
  type RecordKind,
  type RecordListOptions,
  type RecordRows,
} from '@transfergate/contracts';

/**
 * The panel's way to the ledger for records: commands (writes, the ledger decides) and queries
 * (reads, answered by the ledger's query handlers). A write that lost an optimistic-concurrency race
 * in a Configure* handler is answered 409, not 500.
 */
@Injectable()
export class RecordBus {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  async send<R>(command: Command<R>): Promise<R> {
    try {
      return await this.commands.execute(command);
    } catch (error) {
      if ((error as Error)?.name === 'WrongExpectedVersionError') {
        throw new DomainError('concurrency_conflict', 'the record changed at the same time; reload and retry');
      }
      throw error;
    }
  }

  list<K extends RecordKind>(kind: K, options: RecordListOptions = {}): Promise<RecordRows[K][]> {
    return this.queries.execute(new ListRecordsQuery(kind, options));
  }

  get<K extends RecordKind>(kind: K, by: { id: string } | { key: string }): Promise<RecordRows[K] | null> {
    return this.queries.execute(new GetRecordQuery(kind, by));
  }

  /** The record, or 404 in the panel's error shape. */
  async require<K extends RecordKind>(kind: K, id: string, label: string): Promise<RecordRows[K]> {
    const row = await this.get(kind, { id });
    if (!row) throw new DomainError('not_found', `no ${label} ${id}`);
    return row;
  }

  /** A save that names both an id and a key: they must be the same record (keys cannot be renamed). */
  assertSameRecord(givenId: string | undefined, found: { id: string } | null, label: string): void {
    if (givenId !== undefined && found?.id !== givenId) {
      throw new DomainError(
        'validation_failed',
        `invalid request: id does not match the ${label}; the ${label} is the record's key and cannot be changed`,
      );
    }
  }
}

/** A record id from a path: anything that is not an id is simply not found. */
export function recordIdParam(id: string, label: string): string {
  if (!RecordIdSchema.safeParse(id).success) throw new DomainError('not_found', `no ${label} ${id.slice(0, 64)}`);
  return id;
}
