import { createHash } from 'node:crypto';
import { isEncryptedField } from '@transfergate/security';
import type { SqlDatabase } from '../sql/sql-database.js';
import { CHAIN_BACKFILL } from '../store/schema.js';
import type { PersonalDataCodec } from './personal-data-codec.js';

/**
 * The one-time upgrade of a store written before personal fields were encrypted
 * (docs/decisions/0067-personal-data.md, "Existing stores"). Run with every process stopped:
 *   1. the head of every stream that holds a personal event type is recorded in es_chain_epochs
 *      (under `epoch`; a second run keeps the first run's heads, the true old ones);
 *   2. each such event's plaintext personal fields are encrypted in place (same event id, position
 *      and recorded time; an event already encrypted is left as it is, so a run can be repeated);
 *   3. the hash chains of the rewritten streams are computed again from their first event
 *      (CHAIN_BACKFILL), so the replay verifies them;
 * and the caller records the old heads' digest in an event of the new chain (an auditor matches it
 * against an old backup's heads: the history is followed across the upgrade).
 */
export const CHAIN_EPOCHS_SCHEMA = `
create table if not exists es_chain_epochs (
  epoch text not null,
  stream_id text not null,
  old_head_hash bytea not null,
  recorded_at timestamptz not null default now(),
  primary key (epoch, stream_id)
);
`;

/** Events read and rewritten per statement. */
export const ENCRYPT_IN_PLACE_BATCH = 1_000;

export interface InPlaceEncryption {
  epoch: string;
  eventsRewritten: number;
  streamsRechained: number;
  /** sha256 over `<stream id> <old head, hex>\n`, streams in order: what the new chain records. */
  oldHeadsSha256: string;
}

export async function encryptStoreInPlace(
  db: SqlDatabase,
  codec: PersonalDataCodec,
  personalTypes: readonly string[],
  epoch: string,
): Promise<InPlaceEncryption> {
  await db.exec(CHAIN_EPOCHS_SCHEMA);
  await db.query(
    `insert into es_chain_epochs (epoch, stream_id, old_head_hash)
     select $1, s.stream_id, s.head_hash from es_streams s
      where s.head_hash is not null
        and exists (select 1 from es_events e where e.stream_id = s.stream_id and e.type = any($2::text[]))
     on conflict (epoch, stream_id) do nothing`,
    [epoch, personalTypes],
  );
  let after = '0';
  let eventsRewritten = 0;
  const rechain = new Set<string>();
  for (;;) {
    const { rows } = await db.query<{
      seq: string;
      event_id: string;
      stream_id: string;
      type: string;
      schema_version: number;
      data: unknown;
    }>(
      `select seq::text as seq, event_id::text as event_id, stream_id, type, schema_version, data from es_events
        where type = any($1::text[]) and seq > $2::bigint order by seq limit $3`,
      [personalTypes, after, ENCRYPT_IN_PLACE_BATCH],
    );
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.seq;
    const seqs: string[] = [];
    const datas: string[] = [];
    for (const row of rows) {
      if (!hasPlaintextField(row.data, codec, row.type)) continue;
      const [encrypted] = await codec.encrypt([
        { eventId: row.event_id, type: row.type, schemaVersion: row.schema_version, data: row.data },
      ]);
      seqs.push(row.seq);
      datas.push(JSON.stringify(encrypted!.data));
      rechain.add(row.stream_id);
    }
    if (seqs.length > 0) {
      await db.query(
        `update es_events e set data = n.data::jsonb from unnest($1::bigint[], $2::text[]) as n(seq, data)
          where e.seq = n.seq`,
        [seqs, datas],
      );
      eventsRewritten += seqs.length;
    }
  }
  // The retention counts from the last event under each key, not from this upgrade.
  await db.query(
    `update pd_data_keys k set last_written_at = m.last_at
       from (select substring(data::text from 'pd1\\.([0-9a-f]{32})\\.') as key_ref, max(created_at) as last_at
               from es_events where type = any($1::text[]) group by 1) m
      where k.key_ref = m.key_ref`,
    [personalTypes],
  );
  if (rechain.size > 0) {
    await db.query(`update es_streams set head_hash = null where stream_id = any($1::text[])`, [[...rechain]]);
    await db.exec(CHAIN_BACKFILL);
  }
  const { rows: heads } = await db.query<{ stream_id: string; head: string }>(
    `select stream_id, encode(old_head_hash, 'hex') as head from es_chain_epochs where epoch = $1 order by stream_id`,
    [epoch],
  );
  const digest = createHash('sha256');
  for (const head of heads) digest.update(`${head.stream_id} ${head.head}\n`, 'utf8');
  return { epoch, eventsRewritten, streamsRechained: rechain.size, oldHeadsSha256: digest.digest('hex') };
}

/** True when some personal field of the event is still plaintext (an event is encrypted whole). */
function hasPlaintextField(data: unknown, codec: PersonalDataCodec, type: string): boolean {
  const fields = codec.policy.fieldsOf(type);
  if (!fields) return false;
  let plaintext = false;
  codec.visitPersonalStrings(data, fields, (value) => {
    if (!isEncryptedField(value)) plaintext = true;
  });
  return plaintext;
}
