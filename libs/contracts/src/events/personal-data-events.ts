import { z } from 'zod';

/**
 * A store written before personal fields were encrypted was upgraded in place
 * (docs/decisions/0067-personal-data.md, "Existing stores"): its personal fields were encrypted and
 * the rewritten streams' chains computed again. The old heads stay in es_chain_epochs; their digest
 * is recorded here, in the new chain, so an auditor follows the history across the upgrade.
 */
export const PersonalDataEncryptedV1 = z.object({
  epoch: z.string().min(1).max(64),
  eventsRewritten: z.number().int().nonnegative(),
  streamsRechained: z.number().int().nonnegative(),
  /** sha256 over `<stream id> <old head, hex>\n` of every stream with personal events, in stream order. */
  oldHeadsSha256: z.string().regex(/^[0-9a-f]{64}$/),
});
