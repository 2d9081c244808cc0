import {
  DomainError,
  STREAMS,
  domainEvent,
  type ActorRef,
  type RiskHit,
  type TransactionView,
} from '@transfergate/contracts';
import type { LedgerRepository } from '../persistence/ledger-repository.js';
import { replayOrDuplicate } from '../commands/request-rules.js';

/** The one answer to a refused request: never which rule or list matched. */
export function riskRefused(): DomainError {
  return new DomainError('risk_refused', 'the request was refused');
}

/**
 * A request a risk rule refuses: a repeat of an accepted one still gets its first answer; otherwise
 * the hits are recorded (RiskRuleHit in `risk-refusals-<merchant>`, the request has no stream) and
 * the request is refused with `risk_refused`.
 */
export async function refuseByRisk(
  repository: LedgerRepository,
  request: {
    transactionId: string;
    merchantId: string;
    externalId: string;
    kind: 'deposit' | 'withdrawal';
    fingerprint: string;
    actor: ActorRef;
  },
  hits: RiskHit[],
): Promise<TransactionView> {
  const existing = await repository.loadTransaction(request.transactionId);
  if (existing) return replayOrDuplicate(existing, request.fingerprint);
  await repository.append(
    [
      {
        streamId: STREAMS.riskRefusals(request.merchantId),
        expectedVersion: 'any',
        events: [
          domainEvent('RiskRuleHit', {
            transactionId: request.transactionId,
            merchantId: request.merchantId,
            externalId: request.externalId,
            kind: request.kind,
            action: 'refuse',
            hits,
          }),
        ],
      },
    ],
    request.actor,
  );
  throw riskRefused();
}
