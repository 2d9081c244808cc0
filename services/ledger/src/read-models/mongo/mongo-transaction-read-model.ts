import { MongoClient, MongoServerError, type Collection, type Db, type Filter } from 'mongodb';
import type { PanelTransactionFilters, PanelTransactionPage, TransactionView } from '@transfergate/contracts';
import type { RecordedEvent } from '@transfergate/event-store';
import { evolve, type TransactionAggregate } from '../../domain/transaction.js';
import {
  ReadModelGapError,
  TRANSACTION_STREAM_PREFIX,
  decodeListCursor,
  encodeListCursor,
  pageSize,
  panelRecordOf,
  type TransactionReadModel,
} from '../transaction-read-model.js';

/** One transaction: the folded view (what evolve() continues from) and the fields queries use. */
export interface TransactionDocument {
  _id: string;
  version: number;
  number: number;
  type: TransactionView['type'];
  state: TransactionView['state'];
  merchantId: string;
  providerId: string;
  externalId: string;
  fullName: string | null;
  username: string | null;
  iban: string | null;
  paymentToken: string | null;
  /** Event time as a Date (exact to the millisecond, as events record it): sorting and ranges. */
  createdAt: Date;
  /** The whole view; kuruş stay decimal strings (never a float). */
  view: TransactionView;
}

export const TRANSACTIONS_COLLECTION = 'rm_transactions';
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const NUMBER = /^[1-9]\d{0,14}$/;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function encodeCursor(doc: TransactionDocument): string {
  return encodeListCursor(doc.createdAt.toISOString(), doc._id);
}

function decodeCursor(cursor: string): [Date, string] {
  const [time, id] = decodeListCursor(cursor, ISO_MS);
  return [new Date(time), id];
}

/**
 * The MongoDB adapter of the transaction read model (MONGODB_URL). Writes are conditional on the
 * stored version (insert at version 1, update where version = v-1), so a redelivered batch changes
 * nothing and two appliers can never both advance one transaction.
 */
export class MongoTransactionReadModel implements TransactionReadModel {
  readonly adapter = 'mongodb' as const;
  private readonly transactions: Collection<TransactionDocument>;

  constructor(
    db: Db,
    private readonly client?: MongoClient,
  ) {
    this.transactions = db.collection<TransactionDocument>(TRANSACTIONS_COLLECTION);
  }

  /** `mongodb://host:27017/transfergate` (MONGODB_URL); the database is the URL's path, else `transfergate`. */
  static async connect(url: string, databaseName?: string): Promise<MongoTransactionReadModel> {
    if (!/^mongodb(\+srv)?:\/\/.+/.test(url)) throw new Error('MONGODB_URL must be a mongodb:// or mongodb+srv:// URL');
    const client = await new MongoClient(url, { serverSelectionTimeoutMS: 10_000 }).connect();
    return new MongoTransactionReadModel(client.db(databaseName ?? (client.options.dbName || 'transfergate')), client);
  }

  async close(): Promise<void> {
    await this.client?.close();
  }

  async prepare(): Promise<void> {
    await this.transactions.createIndexes([
      { key: { createdAt: -1, _id: -1 }, name: 'newest' },
      { key: { number: 1 }, name: 'number', unique: true },
      { key: { providerId: 1, externalId: 1 }, name: 'provider_external', unique: true },
      { key: { type: 1, state: 1, createdAt: -1 }, name: 'queue' },
      {
        key: { paymentToken: 1 },
        name: 'payment_token',
        unique: true,
        partialFilterExpression: { paymentToken: { $type: 'string' } },
      },
    ]);
  }

  async apply(events: readonly RecordedEvent[]): Promise<void> {
    for (const event of events) {
      if (!event.streamId.startsWith(TRANSACTION_STREAM_PREFIX)) continue;
      await this.applyOne(event);
    }
  }

  private async applyOne(event: RecordedEvent): Promise<void> {
    const transactionId = event.streamId.slice(TRANSACTION_STREAM_PREFIX.length);
    const stored = await this.transactions.findOne({ _id: transactionId });
    const storedVersion = stored?.version ?? 0;
    if (event.streamVersion <= storedVersion) return;
    if (event.streamVersion !== storedVersion + 1) {
      throw new ReadModelGapError(transactionId, storedVersion, event.streamVersion);
    }
    const current: TransactionAggregate | undefined = stored
      ? { version: stored.version, requestFingerprint: '', view: stored.view }
      : undefined;
    const next = evolve(current, event);
    const { replayed: _replayed, ...view } = next.view;
    const doc: TransactionDocument = {
      _id: transactionId,
      version: event.streamVersion,
      number: view.number,
      type: view.type,
      state: view.state,
      merchantId: view.merchantId,
      providerId: view.providerId,
      externalId: view.externalId,
      fullName: view.customer.fullName ?? null,
      username: view.customer.username ?? null,
      iban: view.iban ?? null,
      paymentToken: view.paymentToken ?? null,
      createdAt: new Date(view.createdAt),
      view,
    };
    if (!stored) {
      try {
        await this.transactions.insertOne(doc);
      } catch (error) {
        // Another applier inserted it first: fine when it is at least this version.
        if (error instanceof MongoServerError && error.code === 11000) {
          const now = await this.transactions.findOne({ _id: transactionId }, { projection: { version: 1 } });
          if (now && now.version >= event.streamVersion) return;
        }
        throw error;
      }
      return;
    }
    const { _id, ...fields } = doc;
    const result = await this.transactions.updateOne({ _id, version: storedVersion }, { $set: fields });
    if (result.matchedCount === 1) return;
    const now = await this.transactions.findOne({ _id }, { projection: { version: 1 } });
    if (now && now.version >= event.streamVersion) return;
    throw new ReadModelGapError(transactionId, now?.version ?? 0, event.streamVersion);
  }

  async findIdByNumber(number: string, providerId?: string): Promise<string | undefined> {
    if (!NUMBER.test(number)) return undefined;
    const doc = await this.transactions.findOne(
      { number: Number(number), ...(providerId === undefined ? {} : { providerId }) },
      { projection: { _id: 1 } },
    );
    return doc?._id;
  }

  async list(filters: PanelTransactionFilters): Promise<PanelTransactionPage> {
    const and: Filter<TransactionDocument>[] = [];
    if (filters.type) and.push({ type: filters.type });
    if (filters.state?.length) and.push({ state: { $in: filters.state as TransactionDocument['state'][] } });
    if (filters.merchantId) and.push({ merchantId: filters.merchantId });
    if (filters.providerId) and.push({ providerId: filters.providerId });
    if (filters.createdFrom) and.push({ createdAt: { $gte: new Date(filters.createdFrom) } });
    if (filters.createdUntil) and.push({ createdAt: { $lte: new Date(filters.createdUntil) } });
    if (filters.createdBefore) and.push({ createdAt: { $lt: new Date(filters.createdBefore) } });
    if (filters.q) {
      // Literal, case-insensitive "contains", like the SQL adapter's ILIKE with escaped wildcards.
      const text = new RegExp(escapeRegex(filters.q), 'i');
      const compact = new RegExp(escapeRegex(filters.q.replace(/\s+/g, '')), 'i');
      const alternatives: Filter<TransactionDocument>[] = [
        { externalId: text },
        { fullName: text },
        { username: text },
        { iban: compact },
      ];
      if (NUMBER.test(filters.q)) alternatives.push({ number: Number(filters.q) });
      and.push({ $or: alternatives });
    }
    if (filters.cursor) {
      const [time, id] = decodeCursor(filters.cursor);
      and.push({ $or: [{ createdAt: { $lt: time } }, { createdAt: time, _id: { $lt: id } }] });
    }
    const limit = pageSize(filters.limit);
    const docs = await this.transactions
      .find(and.length ? { $and: and } : {})
      .sort({ createdAt: -1, _id: -1 })
      .limit(limit + 1)
      .toArray();
    const page = docs.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map((doc) => panelRecordOf(doc.view)),
      nextCursor: docs.length > limit && last ? encodeCursor(last) : null,
    };
  }
}
