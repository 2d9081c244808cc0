import { Injectable } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { createHash, randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  ApproveTransactionCommand,
  AssignTransactionCommand,
  ChangeAmountCommand,
  DecideAmountChangeCommand,
  DomainError,
  ListPendingAmountChangesQuery,
  FindPanelProviderQuery,
  FindPanelTransactionQuery,
  ListPanelTransactionsQuery,
  RejectTransactionCommand,
  ReleaseRiskHoldCommand,
  RequestDepositCommand,
  RequestWithdrawalCommand,
  type PanelAmountChangeApproveRequestSchema,
  type PanelAmountChangeList,
  type PanelAmountChangeRejectRequestSchema,
  type PanelAssignRequestSchema,
  type PanelDepositCreateRequestSchema,
  type PanelRejectRequestSchema,
  type PanelTransaction,
  type PanelTransactionDetail,
  type PanelTransactionList,
  type PanelTransactionListRequest,
  type PanelUpdateAmountRequestSchema,
  type PanelUpdateFullRequestSchema,
  type PanelWithdrawalCreateRequestSchema,
  type TransactionView,
} from '@transfergate/contracts';
import { actorOf, type OperatorContext } from '../auth/decorators.js';
import { OperatorDirectory } from '../auth/operator-directory.service.js';
import { redactSecretFields } from '../secrets/secret-redaction.js';
import { toPanelTransaction, toPanelTransactionDetail } from './panel-transaction.presenter.js';

export type TransactionKind = 'deposit' | 'withdrawal';

/** The fields update-quick and update-full act on (update-full adds fields it can only confirm). */
type UpdateInput = z.infer<typeof PanelUpdateFullRequestSchema>;

const normaliseIban = (iban: string) => iban.replace(/\s+/g, '').toUpperCase();

/** sha256 of the canonical (sorted key, string value) list: what the request asks for. */
function fingerprint(parts: Record<string, string | bigint | undefined>): string {
  const canonical = Object.keys(parts)
    .sort()
    .map((key) => [key, parts[key] === undefined ? null : String(parts[key])]);
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

/**
 * What the panel's transaction routes do. Every change is a command to the ledger with the
 * operator as actor (operator id and client IP land on the event metadata); the ledger decides
 * every rule and race (final states, expiry, balance). Lookups are queries, so the panel never
 * touches the ledger's tables or package.
 */
@Injectable()
export class PanelTransactionsService {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly operators: OperatorDirectory,
  ) {}

  async list(filters: PanelTransactionListRequest): Promise<PanelTransactionList> {
    const page = await this.queries.execute(new ListPanelTransactionsQuery(filters));
    return { items: page.items.map(toPanelTransaction), nextCursor: page.nextCursor };
  }

  /** With `secrets: false` the history's signatures and hashes (the request's SecurityKey ...) are blanked. */
  async detail(ref: string, shown: { secrets: boolean }): Promise<PanelTransactionDetail> {
    const found = await this.queries.execute(new FindPanelTransactionQuery(ref, true));
    if (!found) throw new DomainError('transaction_not_found', `no transaction ${ref}`);
    const detail = toPanelTransactionDetail(found);
    return shown.secrets
      ? detail
      : { ...detail, history: detail.history.map((event) => ({ ...event, data: redactSecretFields(event.data) })) };
  }

  /**
   * An operator who also holds `transactions.approve_expired` approves with `allowExpired`, so an
   * expired deposit can still be approved; without it the ledger refuses that move (422).
   */
  async approve(kind: TransactionKind, ref: string, operator: OperatorContext): Promise<PanelTransaction> {
    const view = await this.resolve(kind, ref);
    const allowExpired = kind === 'deposit' && operator.permissions.includes('transactions.approve_expired');
    return this.send(
      new ApproveTransactionCommand({
        transactionId: view.transactionId,
        actor: actorOf(operator),
        ...(allowExpired ? { allowExpired: true } : {}),
      }),
    );
  }

  async reject(
    kind: TransactionKind,
    input: z.infer<typeof PanelRejectRequestSchema>,
    operator: OperatorContext,
  ): Promise<PanelTransaction> {
    const view = await this.resolve(kind, input.id);
    return this.send(
      new RejectTransactionCommand({
        transactionId: view.transactionId,
        reason: input.reason,
        actor: actorOf(operator),
      }),
    );
  }

  /** A transaction a risk rule holds, released: it goes on from where it started (audited as its event). */
  async release(kind: TransactionKind, ref: string, operator: OperatorContext): Promise<PanelTransaction> {
    const view = await this.resolve(kind, ref);
    return this.send(new ReleaseRiskHoldCommand({ transactionId: view.transactionId, actor: actorOf(operator) }));
  }

  /** Withdrawal assignment; the assignee defaults to the acting operator. */
  async assign(
    kind: TransactionKind,
    input: z.infer<typeof PanelAssignRequestSchema>,
    operator: OperatorContext,
  ): Promise<PanelTransaction> {
    const view = await this.resolve(kind, input.id);
    const assignee = input.assignee === undefined ? operator.operatorId : await this.operatorIdOf(input.assignee);
    return this.send(
      new AssignTransactionCommand({ transactionId: view.transactionId, assignee, actor: actorOf(operator) }),
    );
  }

  /**
   * The answer's `pendingAmountChange` is set when the change waits for a second operator (the
   * amount is not changed yet; the controller answers 202 then).
   */
  async updateAmount(
    kind: TransactionKind,
    input: z.infer<typeof PanelUpdateAmountRequestSchema>,
    operator: OperatorContext,
  ): Promise<PanelTransaction> {
    const view = await this.resolve(kind, input.id);
    return this.withRequesterName(
      await this.send(
        new ChangeAmountCommand({
          transactionId: view.transactionId,
          amountKurus: input.amount,
          actor: actorOf(operator),
        }),
      ),
    );
  }

  /** The transactions whose amount change waits for a second operator, oldest request first. */
  async pendingAmountChanges(): Promise<PanelAmountChangeList> {
    const views: TransactionView[] = await this.queries.execute(new ListPendingAmountChangesQuery());
    return { items: await Promise.all(views.map((view) => this.withRequesterName(toPanelTransaction(view)))) };
  }

  /** A second operator approves (or rejects, with a reason) a waiting amount change; the ledger refuses the operator who asked. */
  async decideAmountChange(
    decision: 'approve' | 'reject',
    input: z.infer<typeof PanelAmountChangeApproveRequestSchema> &
      Partial<z.infer<typeof PanelAmountChangeRejectRequestSchema>>,
    operator: OperatorContext,
  ): Promise<PanelTransaction> {
    const found = await this.queries.execute(new FindPanelTransactionQuery(input.id));
    if (!found) throw new DomainError('transaction_not_found', `no transaction ${input.id}`);
    return this.send(
      new DecideAmountChangeCommand({
        transactionId: found.view.transactionId,
        requestId: input.requestId,
        decision,
        ...(input.reason !== undefined ? { reason: input.reason } : {}),
        actor: actorOf(operator),
      }),
    );
  }

  /** The requesting operator's username beside their id, when the answer carries a waiting change. */
  private async withRequesterName(transaction: PanelTransaction): Promise<PanelTransaction> {
    const pending = transaction.pendingAmountChange;
    if (!pending) return transaction;
    const record = await this.operators.byId(pending.requestedBy);
    return record
      ? { ...transaction, pendingAmountChange: { ...pending, requestedByName: record.username } }
      : transaction;
  }

  /**
   * update-quick and update-full. Everything is checked before anything is written; then a changed
   * amount is one ChangeAmountCommand and a changed assignee one AssignTransactionCommand, in that
   * order (two commands, not one atomic step: if the second is refused the first stays done, and the
   * answer is the refusal). Unchanged fields send nothing. The ledger has no command for a customer
   * name or IBAN change, so a changed `customerName`/`iban` is refused with 400.
   */
  async update(kind: TransactionKind, input: UpdateInput, operator: OperatorContext): Promise<PanelTransaction> {
    let view = await this.resolve(kind, input.id);
    if (input.customerName !== undefined && input.customerName !== view.customer.fullName) {
      throw new DomainError(
        'validation_failed',
        'invalid request: customerName cannot be changed (the ledger has no command for it)',
        { fields: [{ field: 'customerName', problem: 'changing it is not supported' }] },
      );
    }
    const currentIban = view.iban ?? view.bankAccount?.iban;
    if (input.iban !== undefined && normaliseIban(input.iban) !== currentIban) {
      throw new DomainError(
        'validation_failed',
        'invalid request: iban cannot be changed (the ledger has no command for it)',
        {
          fields: [{ field: 'iban', problem: 'changing it is not supported' }],
        },
      );
    }
    const changeAmount = input.amount !== undefined && input.amount.toString() !== view.amountKurus;
    let assignee: string | undefined;
    if (input.assignee !== undefined) {
      if (!operator.permissions.includes('transactions.assign')) {
        throw new DomainError('permission_denied', 'your role lacks the permission transactions.assign');
      }
      assignee = await this.operatorIdOf(input.assignee);
      if (assignee === view.assignee) assignee = undefined;
    }
    if (changeAmount) {
      view = await this.commands.execute(
        new ChangeAmountCommand({
          transactionId: view.transactionId,
          amountKurus: input.amount!,
          actor: actorOf(operator),
        }),
      );
    }
    if (assignee !== undefined) {
      view = await this.commands.execute(
        new AssignTransactionCommand({ transactionId: view.transactionId, assignee, actor: actorOf(operator) }),
      );
    }
    return toPanelTransaction(view);
  }

  /**
   * A transaction created by an operator for a provider: form `panel`, external id `panel-<uuid>`
   * unless given. With a given external id a repeat of the same request answers the first result
   * again and another request with that id is a 409 (the ledger's idempotency rule).
   */
  async create(
    kind: TransactionKind,
    input: z.infer<typeof PanelDepositCreateRequestSchema> | z.infer<typeof PanelWithdrawalCreateRequestSchema>,
    operator: OperatorContext,
  ): Promise<PanelTransaction> {
    const provider = await this.queries.execute(new FindPanelProviderQuery(input.providerId));
    if (!provider) throw new DomainError('not_found', `no provider ${input.providerId}`);
    if (provider.merchantId !== input.merchantId) {
      throw new DomainError(
        'validation_failed',
        `invalid request: provider ${input.providerId} is not the merchant's`,
        {
          fields: [{ field: 'providerId', problem: 'does not belong to merchantId' }],
        },
      );
    }
    if (!provider.active) throw new DomainError('provider_disabled', 'the provider is disabled');
    const externalId = input.externalId ?? `panel-${randomUUID()}`;
    const iban = 'iban' in input ? normaliseIban(input.iban) : undefined;
    const origin = {
      merchantId: provider.merchantId,
      providerId: provider.providerId,
      infrastructureId: provider.infrastructureId,
      form: 'panel' as const,
      externalId,
      amountKurus: input.amount,
      customer: {
        fullName: input.customerName,
        ...(input.customerUsername ? { username: input.customerUsername } : {}),
      },
      requestFingerprint: fingerprint({
        op: kind,
        form: 'panel',
        merchantId: provider.merchantId,
        providerId: provider.providerId,
        externalId,
        amountKurus: input.amount,
        customerName: input.customerName,
        customerUsername: input.customerUsername,
        iban,
      }),
      actor: actorOf(operator),
    };
    const view: TransactionView =
      kind === 'deposit'
        ? await this.commands.execute(new RequestDepositCommand(origin))
        : await this.commands.execute(new RequestWithdrawalCommand({ ...origin, iban: iban! }));
    if (view.type !== kind) {
      throw new DomainError('duplicate_transaction', `external id ${externalId} is already used by a ${view.type}`);
    }
    return toPanelTransaction(view);
  }

  /** The transaction behind a body's `id`, which must be of the route's kind. */
  private async resolve(kind: TransactionKind, ref: string): Promise<TransactionView> {
    const found = await this.queries.execute(new FindPanelTransactionQuery(ref));
    if (!found || found.view.type !== kind) throw new DomainError('transaction_not_found', `no ${kind} ${ref}`);
    return found.view;
  }

  /** An assignee is an active operator, named by id or username; recorded by id. */
  private async operatorIdOf(assignee: string): Promise<string> {
    const record = (await this.operators.byId(assignee)) ?? (await this.operators.byUsername(assignee));
    if (!record || !record.active) {
      throw new DomainError('validation_failed', `invalid request: assignee ${assignee} is not an active operator`, {
        fields: [{ field: 'assignee', problem: 'not an active operator' }],
      });
    }
    return record.operatorId;
  }

  private async send(
    command:
      | ApproveTransactionCommand
      | RejectTransactionCommand
      | AssignTransactionCommand
      | ChangeAmountCommand
      | ReleaseRiskHoldCommand
      | DecideAmountChangeCommand,
  ): Promise<PanelTransaction> {
    const view: TransactionView = await this.commands.execute(command);
    return toPanelTransaction(view);
  }
}
