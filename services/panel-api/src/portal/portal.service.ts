import { Injectable } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { randomBytes } from 'node:crypto';
import {
  DomainError,
  FindCallbackDeliveryQuery,
  FindPanelTransactionQuery,
  InviteMerchantUserCommand,
  ListCallbackDeliveriesQuery,
  ListPanelTransactionsQuery,
  MAX_CALLBACKS_PER_RECOVERY,
  RecordCallbackRecoveryCommand,
  SetProviderCallbackUrlsCommand,
  PORTAL_TRANSACTION_FILTERS,
  PanelTransactionListRequestSchema,
  ResendCallbackCommand,
  kurusToNumber,
  parseBody,
  type MerchantRoleName,
  type PanelCallbackDetail,
} from '@transfergate/contracts';
import { actorOf, type OperatorContext } from '../auth/decorators.js';
import { ProvidersService } from '../records/providers.service.js';
import { RecordBus } from '../records/record-commands.js';
import { operatorView, providerView } from '../records/records.presenter.js';
import { toPanelTransaction, toPanelTransactionDetail } from '../transactions/panel-transaction.presenter.js';
import { portalCallback, portalProvider, portalTransaction, portalTransactionDetail } from './portal.presenter.js';

/** Callbacks shown with a transaction: one per final event, so a handful at most. */
const MAX_CALLBACKS_PER_TRANSACTION = 10;
/** Users listed for one merchant at most (a merchant's team). */
const MAX_MERCHANT_USERS = 500;

/** A generated first password for an invited user (144 bits), shown once to whoever invited. */
export const generateInvitePassword = () => `inv_${randomBytes(18).toString('base64url')}`;

/**
 * The merchant portal. Every method takes the signed-in merchant user and acts on its merchant
 * only: the merchant comes from the account, and a record of another merchant is answered exactly
 * like one that does not exist (404), so ids reveal nothing across merchants.
 */
@Injectable()
export class PortalService {
  constructor(
    private readonly bus: RecordBus,
    private readonly queries: QueryBus,
    private readonly commands: CommandBus,
    private readonly providers: ProvidersService,
  ) {}

  async me(user: OperatorContext) {
    const merchant = await this.bus.require('merchant', merchantOf(user), 'merchant');
    return {
      id: user.operatorId,
      username: user.username,
      role: user.role,
      permissions: user.permissions,
      merchant: { id: merchant.record.merchantId, name: merchant.record.name, active: merchant.record.active },
    };
  }

  async balance(user: OperatorContext) {
    const merchant = await this.bus.require('merchant', merchantOf(user), 'merchant');
    return {
      currency: 'TRY' as const,
      balance: kurusToNumber(BigInt(merchant.balanceKurus)),
      available: kurusToNumber(BigInt(merchant.availableKurus)),
    };
  }

  async transactions(user: OperatorContext, query: unknown) {
    const raw = (query ?? {}) as Record<string, unknown>;
    const allowed = Object.fromEntries(
      PORTAL_TRANSACTION_FILTERS.filter((key) => raw[key] !== undefined).map((key) => [key, raw[key]]),
    );
    const filters = parseBody(PanelTransactionListRequestSchema, { ...allowed, merchantId: merchantOf(user) });
    const page = await this.queries.execute(new ListPanelTransactionsQuery(filters));
    return {
      items: page.items.map((item) => portalTransaction(toPanelTransaction(item))),
      nextCursor: page.nextCursor,
    };
  }

  async transaction(user: OperatorContext, ref: string) {
    const found = await this.queries.execute(new FindPanelTransactionQuery(ref, true));
    if (!found || found.view.merchantId !== merchantOf(user)) {
      throw new DomainError('transaction_not_found', `no transaction ${ref}`);
    }
    const detail = toPanelTransactionDetail(found);
    const page = await this.queries.execute(
      new ListCallbackDeliveriesQuery({ transactionId: detail.id, limit: MAX_CALLBACKS_PER_TRANSACTION }),
    );
    const callbacks: PanelCallbackDetail[] = [];
    // The filter also matches an external id: only this transaction's own callbacks are shown.
    for (const item of page.items.filter((delivery) => delivery.transactionId === detail.id)) {
      const full = await this.queries.execute(new FindCallbackDeliveryQuery(item.id));
      if (full) callbacks.push(full);
    }
    return portalTransactionDetail(detail, callbacks);
  }

  /** Resends one of the merchant's callbacks now (the attempt records who asked). */
  async resendCallback(user: OperatorContext, ref: string) {
    const delivery = await this.queries.execute(new FindCallbackDeliveryQuery(ref));
    const owner = delivery && (await this.queries.execute(new FindPanelTransactionQuery(delivery.transactionId)));
    if (!delivery || !owner || owner.view.merchantId !== merchantOf(user)) {
      throw new DomainError('not_found', `no callback ${ref}`);
    }
    const resent = await this.commands.execute(new ResendCallbackCommand({ ref: delivery.id, actor: actorOf(user) }));
    return portalCallback(resent);
  }

  /**
   * Resends every failed callback of the merchant created in [from, to): at most
   * MAX_CALLBACKS_PER_RECOVERY (more: narrow the range), recorded as one audit event before the
   * first is resent. Each is resent at once; the answer lists them with their state after the resend.
   */
  async recoverCallbacks(user: OperatorContext, from: string, to: string) {
    const merchantId = merchantOf(user);
    const providerIds = (await this.bus.list('provider', { merchantId, includeDeleted: true })).map(
      (row) => row.record.providerId,
    );
    const page = await this.queries.execute(
      new ListCallbackDeliveriesQuery({
        state: ['failed'],
        providerIds,
        createdFrom: new Date(from).toISOString(),
        createdTo: new Date(to).toISOString(),
        limit: MAX_CALLBACKS_PER_RECOVERY + 1,
      }),
    );
    if (page.items.length > MAX_CALLBACKS_PER_RECOVERY) {
      throw new DomainError(
        'validation_failed',
        `more than ${MAX_CALLBACKS_PER_RECOVERY} failed callbacks in the range; narrow it and recover in parts`,
      );
    }
    // A provider may have moved between merchants: the transaction's merchant decides.
    const owned = [];
    for (const delivery of page.items) {
      const transaction = await this.queries.execute(new FindPanelTransactionQuery(delivery.transactionId));
      if (transaction?.view.merchantId === merchantId) owned.push(delivery);
    }
    const deliveryIds = owned.map((delivery) => delivery.id);
    await this.commands.execute(
      new RecordCallbackRecoveryCommand(
        { merchantId, from: new Date(from).toISOString(), to: new Date(to).toISOString(), deliveryIds },
        actorOf(user),
      ),
    );
    const resent = [];
    for (const id of deliveryIds) {
      resent.push(
        portalCallback(await this.commands.execute(new ResendCallbackCommand({ ref: id, actor: actorOf(user) }))),
      );
    }
    return { success: true, from, to, requested: deliveryIds.length, callbacks: resent };
  }

  async listProviders(user: OperatorContext) {
    const rows = await this.bus.list('provider', { merchantId: merchantOf(user) });
    return { items: rows.map(providerView).map(portalProvider) };
  }

  async rotateSecret(user: OperatorContext, id: string, overlapSeconds: number | undefined) {
    await this.ownProvider(user, id);
    const rotated = await this.providers.rotateSecret(id, overlapSeconds, user);
    return { ...rotated, record: portalProvider(rotated.record) };
  }

  async endSecretOverlap(user: OperatorContext, id: string) {
    await this.ownProvider(user, id);
    const ended = await this.providers.endSecretOverlap(id, user);
    return { ...ended, record: portalProvider(ended.record) };
  }

  /** The merchant's own callback URLs for one of its providers (null: the infrastructure's). */
  async setCallbackUrls(
    user: OperatorContext,
    id: string,
    urls: { callbackDeposit: string | null; callbackWithdrawal: string | null },
  ) {
    await this.ownProvider(user, id);
    const result = await this.bus.send(new SetProviderCallbackUrlsCommand(id, urls, actorOf(user)));
    return { success: true, changed: result.changed, record: portalProvider(await this.providers.get(id)) };
  }

  async listUsers(user: OperatorContext) {
    const rows = (await this.bus.list('operator')).filter((row) => row.record.merchantId === merchantOf(user));
    if (rows.length > MAX_MERCHANT_USERS)
      throw new DomainError('internal_error', 'more users than a merchant may have');
    return { items: rows.map(operatorView).map(({ merchantId: _merchantId, ...view }) => view) };
  }

  /** A merchant admin invites into its own merchant; the first password is answered once. */
  async invite(user: OperatorContext, username: string, role: MerchantRoleName) {
    return inviteMerchantUser(this.bus, { merchantId: merchantOf(user), username, role }, user);
  }

  /** The provider, when it is this merchant's and not deleted; otherwise not found. */
  private async ownProvider(user: OperatorContext, id: string) {
    const row = await this.bus.get('provider', { id });
    if (!row || row.deleted || row.record.merchantId !== merchantOf(user)) {
      throw new DomainError('not_found', `no provider ${id}`);
    }
    return row;
  }
}

/** Creates a merchant user with a generated first password (an operator or a merchant admin invites). */
export async function inviteMerchantUser(
  bus: RecordBus,
  input: { merchantId: string; username: string; role: MerchantRoleName },
  actor: OperatorContext,
) {
  const password = generateInvitePassword();
  const result = await bus.send(new InviteMerchantUserCommand({ ...input, password }, actorOf(actor)));
  const row = await bus.require('operator', result.id, 'user');
  return {
    success: true,
    record: operatorView(row),
    password,
    message:
      input.role === 'merchant_admin'
        ? 'give the user this first password; a merchant admin sets up 2FA before the first sign-in'
        : 'give the user this first password; it is not shown again',
  };
}

/** The merchant of a merchant user (the guard lets only merchant users reach portal routes). */
function merchantOf(user: OperatorContext): string {
  if (user.merchantId === undefined) throw new DomainError('permission_denied', 'this route is for merchant users');
  return user.merchantId;
}
