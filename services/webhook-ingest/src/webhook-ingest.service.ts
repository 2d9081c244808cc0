import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  ApproveTransactionCommand,
  DomainError,
  ERROR_CODES,
  RecordWebhookAmountMismatchCommand,
  RejectTransactionCommand,
  isDomainError,
  transactionIdFor,
  type ActorRef,
  type WebhookKind,
} from '@transfergate/contracts';
import { SQL_DATABASE, type SqlDatabase } from '@transfergate/event-store';
import { ipAllowed } from '@transfergate/security';
import { WebhookDirectory, type WebhookInfrastructure } from './directory/webhook-directory.js';
import { WebhookLogRepository, type ReceivedWebhook, type WebhookResult } from './log/webhook-log.repository.js';
import {
  ID_FIELD_NAMES,
  idCandidates,
  isJsonObject,
  mapStatus,
  paidAmountOf,
  rejectionReason,
  resolveCandidates,
  type CandidateMatch,
  type WebhookDecision,
} from './webhook-body.js';
import { WEBHOOK_SETTINGS, aliasKey, type WebhookSettings } from './webhook.settings.js';

/** The 201 answer: what the transaction is now. `transactionId` is the contract's (external) id. */
export interface WebhookAnswer {
  success: true;
  message: string;
  transactionId: string;
  id: number;
  uuid: string;
  type: WebhookKind;
  status: WebhookDecision;
}

interface FoundTransaction {
  transactionId: string;
  number: number;
  externalId: string;
  type: WebhookKind;
}

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

/**
 * One incoming webhook, start to end: log it as received, resolve the infrastructure (slug, then
 * alias), check the source IP against its allow-list, read the status and the ids, find the
 * transaction among that infrastructure's own, and send one ledger command. The ledger decides:
 * a repeat of the final state it is already in is answered 201 and logged `ignored_repeat` with
 * nothing written; any other move on a final transaction is refused (422 transaction_final).
 * Every outcome completes the log row, with the refusal's message as the reason.
 */
@Injectable()
export class WebhookIngestService {
  private readonly logger = new Logger('WebhookIngest');

  constructor(
    private readonly commands: CommandBus,
    private readonly log: WebhookLogRepository,
    private readonly directory: WebhookDirectory,
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
    @Inject(WEBHOOK_SETTINGS) private readonly settings: WebhookSettings,
  ) {}

  async ingest(webhook: ReceivedWebhook): Promise<WebhookAnswer> {
    const entryId = await this.log.open(webhook);
    const progress: Partial<WebhookResult> = {};
    try {
      const { answer, repeat } = await this.process(webhook, progress);
      await this.log.complete(entryId, {
        ...progress,
        outcome: repeat ? 'ignored_repeat' : 'applied',
        reason: answer.message,
        httpStatus: 201,
      });
      return answer;
    } catch (error) {
      const refused = isDomainError(error);
      const result: WebhookResult = {
        ...progress,
        outcome: refused ? 'refused' : 'failed',
        reason: refused ? error.message : `internal error: ${(error as Error)?.message ?? String(error)}`,
        errorCode: refused ? error.errorCode : 'internal_error',
        httpStatus: refused ? ERROR_CODES[error.errorCode] : 500,
      };
      await this.log.complete(entryId, result).catch((logError: unknown) => {
        this.logger.error(`webhook log entry ${entryId} not completed: ${(logError as Error)?.message}`);
      });
      throw error;
    }
  }

  private async process(
    webhook: ReceivedWebhook,
    progress: Partial<WebhookResult>,
  ): Promise<{ answer: WebhookAnswer; repeat: boolean }> {
    const infrastructure = await this.infrastructureFor(webhook.slug);
    if (!infrastructure) throw new DomainError('not_found', `no infrastructure with slug ${webhook.slug}`);
    progress.infrastructureId = infrastructure.infrastructureId;
    progress.infrastructureSlug = infrastructure.slug;

    // Fail closed: an infrastructure without a webhook allow-list takes webhooks from nobody.
    if (infrastructure.webhookAllowedIps.length === 0) {
      throw new DomainError('ip_not_allowed', `infrastructure ${infrastructure.slug} has no webhook IP allow-list`, {
        ip: webhook.sourceIp,
      });
    }
    if (!ipAllowed(webhook.sourceIp, infrastructure.webhookAllowedIps)) {
      throw new DomainError(
        'ip_not_allowed',
        `source IP ${webhook.sourceIp} is not allow-listed for infrastructure ${infrastructure.slug}`,
        { ip: webhook.sourceIp },
      );
    }

    const body = webhook.body;
    if (!isJsonObject(body)) throw new DomainError('validation_failed', 'the webhook body must be a JSON object');
    const status = mapStatus(body);
    progress.statusValue = status.sent;

    const found = await this.findTransaction(infrastructure, body);
    progress.transactionId = found.transactionId;
    if (found.type !== webhook.kind) {
      throw new DomainError(
        'invalid_state_transition',
        `transaction ${found.externalId} is a ${found.type}, not a ${webhook.kind}: use the ${found.type} callback path`,
        { type: found.type },
      );
    }

    const actor: ActorRef = {
      source: 'webhook',
      ip: webhook.sourceIp,
      ...(webhook.requestId ? { requestId: webhook.requestId } : {}),
    };
    try {
      if (status.decision === 'approved') {
        const paidAmountKurus = paidAmountOf(body);
        try {
          await this.commands.execute(
            new ApproveTransactionCommand({
              transactionId: found.transactionId,
              actor,
              ...(paidAmountKurus !== undefined ? { paidAmountKurus: paidAmountKurus.toString() } : {}),
            }),
          );
        } catch (error) {
          // Never approved silently at another amount: the difference goes into the transaction's
          // history for the operator, and the refusal (422 amount_mismatch) into the webhook log.
          if (isDomainError(error) && error.errorCode === 'amount_mismatch' && paidAmountKurus !== undefined) {
            await this.commands.execute(
              new RecordWebhookAmountMismatchCommand({
                transactionId: found.transactionId,
                paidAmountKurus: paidAmountKurus.toString(),
                actor,
              }),
            );
          }
          throw error;
        }
      } else {
        const reason = rejectionReason(body);
        await this.commands.execute(
          new RejectTransactionCommand({ transactionId: found.transactionId, reason, actor }),
        );
      }
    } catch (error) {
      if (!isDomainError(error) || error.errorCode !== 'transaction_final') throw error;
      const state = error.details?.state;
      if (state === status.decision) {
        return { answer: this.answer(found, status.decision, `already ${status.decision}`), repeat: true };
      }
      throw new DomainError(
        'transaction_final',
        `transaction ${found.externalId} is already ${String(state)}; a ${status.decision} webhook changes nothing`,
        { state },
      );
    }
    return { answer: this.answer(found, status.decision, status.decision), repeat: false };
  }

  private answer(found: FoundTransaction, status: WebhookDecision, message: string): WebhookAnswer {
    return {
      success: true,
      message,
      transactionId: found.externalId,
      id: found.number,
      uuid: found.transactionId,
      type: found.type,
      status,
    };
  }

  /** A real slug first (an alias never shadows one), then the alias map. */
  private async infrastructureFor(segment: string): Promise<WebhookInfrastructure | null> {
    const slug = segment.toLowerCase();
    if (!SLUG.test(slug)) return null;
    const direct = await this.directory.infrastructureBySlug(slug);
    if (direct) return direct;
    const target = this.settings.aliases.get(aliasKey(slug));
    return target && target !== slug ? this.directory.infrastructureBySlug(target) : null;
  }

  /**
   * The transaction ids an external id can have: one per provider (transactionIdFor), of every
   * provider rather than this infrastructure's own, so that a provider moved to another one since
   * still finds its transactions (the lookup keeps only this infrastructure's).
   */
  private async idsOfExternal(externalIds: string[]): Promise<string[]> {
    if (externalIds.length === 0) return [];
    const providerIds = await this.directory.providerIds();
    return externalIds.flatMap((externalId) =>
      providerIds.map((providerId) => transactionIdFor(providerId, externalId)),
    );
  }

  /** The one transaction of this infrastructure the body's id fields name (see resolveCandidates). */
  private async findTransaction(
    infrastructure: WebhookInfrastructure,
    body: Record<string, unknown>,
  ): Promise<FoundTransaction> {
    const candidates = idCandidates(body);
    if (candidates.length === 0) {
      throw new DomainError(
        'validation_failed',
        `the webhook carries no transaction id (${ID_FIELD_NAMES.join(', ')})`,
        {
          fields: [{ field: 'transactionId', problem: 'required' }],
        },
      );
    }
    const values = (meaning: string) => [
      ...new Set(candidates.filter((c) => c.meaning === meaning).map((c) => c.value)),
    ];
    const { rows } = await this.db.query<CandidateMatch & { type: WebhookKind }>(TRANSACTIONS_BY_IDS_SQL, [
      infrastructure.infrastructureId,
      JSON.stringify(values('number')),
      JSON.stringify([...values('uuid'), ...(await this.idsOfExternal(values('external')))]),
    ]);
    const resolution = resolveCandidates(candidates, rows);
    const named = [...new Set(candidates.map((c) => `${c.field}=${c.value}`))].join(', ');
    switch (resolution.kind) {
      case 'none':
        throw new DomainError(
          'transaction_not_found',
          `no transaction of infrastructure ${infrastructure.slug} matches ${named}`,
        );
      case 'conflict':
        throw new DomainError(
          'validation_failed',
          `the id fields ${resolution.fields.join(', ')} name different transactions`,
          {
            fields: resolution.fields.map((field) => ({ field, problem: 'names a different transaction' })),
          },
        );
      case 'ambiguous':
        throw new DomainError(
          'validation_failed',
          `the ids match ${resolution.count} transactions of infrastructure ${infrastructure.slug}; send the uuid or the integer id`,
        );
      case 'found': {
        const row = rows.find((r) => r.transactionId === resolution.transactionId)!;
        return {
          transactionId: row.transactionId,
          number: Number(row.number),
          externalId: row.externalId,
          type: row.type,
        };
      }
    }
  }
}

/**
 * An infrastructure's transactions by number or id ($2, $3: JSON arrays), an external id given as
 * the ids it derives. Index probes only: the earlier `external_id in (...)` had no index to use and
 * read every row of rm_transactions for each webhook (a seq scan, whatever else the webhook named).
 */
export const TRANSACTIONS_BY_IDS_SQL = `select transaction_id::text "transactionId", number::text "number",
    external_id "externalId", type
  from rm_transactions
  where infrastructure_id = $1
    and (number = any (array(select jsonb_array_elements_text($2::jsonb)::bigint))
      or transaction_id = any (array(select jsonb_array_elements_text($3::jsonb)::uuid)))
  limit 50`;
