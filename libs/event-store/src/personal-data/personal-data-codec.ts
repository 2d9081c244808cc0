import { decryptField, encryptField, fieldKeyRef, isEncryptedField } from '@transfergate/security';
import type {
  AppendOptions,
  AppendResult,
  EventStore,
  ExpectedVersion,
  GlobalPosition,
  NewEvent,
  RecordedEvent,
  StreamWrite,
} from '../store/event-store.js';
import type { SubjectKeys } from './subject-keys.js';

/**
 * What the store needs to know of an event type's personal data; libs/contracts builds it from the
 * catalogue's declarations (personalDataPolicy), so this library names no event.
 */
export interface PersonalFields {
  /** Dotted paths of the customer's fields (`[]`: every element, `*`: every value); string leaves. */
  readonly personal: readonly string[];
  /** The canonical identity text of the event's customer, or null when it names nobody. */
  identity(data: unknown): string | null;
  /** The merchant the event is for, when it names one (its retention period applies). */
  merchantOf?(data: unknown): string | undefined;
}

export interface PersonalDataPolicy {
  fieldsOf(type: string): PersonalFields | undefined;
  /** What an erased field reads as. */
  readonly erasedText: string;
}

/**
 * Calls `fn` on every string at `path` of `data` and, unless `visitOnly`, stores its result there
 * (then `data` is a copy the caller owns).
 */
function mapStringsAt(data: unknown, path: string, fn: (value: string) => string, visitOnly = false): void {
  const segments = path.split('.');
  const walk = (node: unknown, index: number): void => {
    if (node === null || typeof node !== 'object') return;
    const segment = segments[index]!;
    const isArray = segment.endsWith('[]');
    const key = isArray ? segment.slice(0, -2) : segment;
    const record = node as Record<string, unknown>;
    const keys = key === '*' ? Object.keys(record) : [key];
    const last = index === segments.length - 1;
    for (const k of keys) {
      const child = record[k];
      if (child === undefined || child === null) continue;
      if (isArray) {
        if (!Array.isArray(child)) continue;
        for (let i = 0; i < child.length; i++) {
          if (!last) walk(child[i], index + 1);
          else if (typeof child[i] === 'string') {
            const next = fn(child[i] as string);
            if (!visitOnly) child[i] = next;
          }
        }
      } else if (!last) walk(child, index + 1);
      else if (typeof child === 'string') {
        const next = fn(child);
        if (!visitOnly) record[k] = next;
      }
    }
  };
  walk(data, 0);
}

/**
 * The encode/decode layer of personal fields: `encrypt` before an append (the hash chain then
 * covers the ciphertext; the caller's data is copied, never changed), `decrypt` after a read (in
 * place: the events' data is what the read just parsed, owned by the reader). A field of an erased customer reads as the
 * policy's erased text; a field whose key is not in the database is DataKeyMissingError and one
 * that does not open is PersonalFieldError, never plaintext passed on silently.
 */
export class PersonalDataCodec {
  constructor(
    readonly keys: SubjectKeys,
    readonly policy: PersonalDataPolicy,
  ) {}

  /** Calls `visit` on every personal string of an event's data (read only). */
  visitPersonalStrings(data: unknown, fields: PersonalFields, visit: (value: string, path: string) => void): void {
    for (const path of fields.personal) {
      mapStringsAt(
        data,
        path,
        (value) => {
          visit(value, path);
          return value;
        },
        true,
      );
    }
  }

  async encrypt(events: readonly NewEvent[]): Promise<NewEvent[]> {
    const out: NewEvent[] = [];
    for (const event of events) {
      const fields = this.policy.fieldsOf(event.type);
      if (!fields || fields.personal.length === 0) {
        out.push(event);
        continue;
      }
      // An event that names nobody still gets a key of its own (erasable by retention).
      const identity = fields.identity(event.data) ?? `event\n${event.eventId}`;
      const { keyRef, key } = await this.keys.keyForWrite(
        this.keys.subjectIdOf(identity),
        fields.merchantOf?.(event.data),
      );
      // A JSON copy (event data is JSON by the store's contract): faster than structuredClone here.
      const data = JSON.parse(JSON.stringify(event.data)) as unknown;
      for (const path of fields.personal) {
        mapStringsAt(data, path, (plain) => {
          if (isEncryptedField(plain))
            throw new Error(`personal data invariant: ${event.type}.${path} is encrypted twice`);
          return encryptField(key, keyRef, `${event.eventId}\n${path}`, plain);
        });
      }
      out.push({ ...event, data });
    }
    return out;
  }

  async decrypt(events: readonly RecordedEvent[]): Promise<RecordedEvent[]> {
    const refs: string[] = [];
    for (const event of events) {
      const fields = this.policy.fieldsOf(event.type);
      if (!fields || fields.personal.length === 0) continue;
      for (const path of fields.personal) {
        const visit = (value: string) => {
          if (isEncryptedField(value)) refs.push(fieldKeyRef(value));
          return value;
        };
        mapStringsAt(event.data, path, visit, true);
      }
    }
    if (refs.length === 0) return events as RecordedEvent[];
    const keys = await this.keys.keysForRead(refs);
    for (const event of events) {
      const fields = this.policy.fieldsOf(event.type);
      if (!fields || fields.personal.length === 0) continue;
      for (const path of fields.personal) {
        mapStringsAt(event.data, path, (value) => {
          if (!isEncryptedField(value)) return value;
          const key = keys.get(fieldKeyRef(value))!;
          return key === 'erased' ? this.policy.erasedText : decryptField(key, `${event.eventId}\n${path}`, value);
        });
      }
    }
    return events as RecordedEvent[];
  }
}

/**
 * An EventStore that encrypts personal fields on the way in and decrypts them on the way out,
 * around any adapter: what the adapter stores and chains is the ciphertext.
 */
export class PersonalDataEventStore implements EventStore {
  constructor(
    readonly inner: EventStore,
    readonly codec: PersonalDataCodec,
  ) {}

  async append(streamId: string, events: NewEvent[], expectedVersion: ExpectedVersion): Promise<AppendResult> {
    return this.inner.append(streamId, await this.codec.encrypt(events), expectedVersion);
  }

  async appendMany(writes: StreamWrite[], options?: AppendOptions): Promise<AppendResult[]> {
    const encrypted: StreamWrite[] = [];
    for (const write of writes) encrypted.push({ ...write, events: await this.codec.encrypt(write.events) });
    return this.inner.appendMany(encrypted, options);
  }

  async readStream(streamId: string, fromVersion?: number): Promise<RecordedEvent[]> {
    return this.codec.decrypt(await this.inner.readStream(streamId, fromVersion));
  }

  async readAll(after: GlobalPosition, limit: number): Promise<RecordedEvent[]> {
    return this.codec.decrypt(await this.inner.readAll(after, limit));
  }

  waitForAppend(timeoutMs: number): Promise<void> {
    return this.inner.waitForAppend(timeoutMs);
  }
}
