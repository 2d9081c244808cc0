import { Injectable } from '@nestjs/common';
import {
  ConfigureMerchantCommand,
  DeleteMerchantCommand,
  DomainError,
  SetMerchantActiveCommand,
  UpdateMerchantProvidersCommand,
  type MerchantSaveRequest,
} from '@transfergate/contracts';
import { actorOf, type OperatorContext } from '../auth/decorators.js';
import { RecordBus } from './record-commands.js';
import { merchantView } from './records.presenter.js';

/**
 * Merchants (= dealers). `save` is keyed by name: a new name creates the merchant (minAmount and
 * maxAmount required), a known one changes the fields given and keeps the others. Saving a deleted
 * merchant restores it. `delete` is soft (see DeleteMerchantCommand): the merchant is deactivated and
 * marked deleted by an event, so its providers are refused at once (merchant_disabled), its balance
 * and transactions stay, and it leaves the lists unless ?includeDeleted=true.
 */
@Injectable()
export class MerchantsService {
  constructor(private readonly bus: RecordBus) {}

  async list(includeDeleted: boolean) {
    return { items: (await this.bus.list('merchant', { includeDeleted })).map(merchantView) };
  }

  async get(id: string) {
    return merchantView(await this.bus.require('merchant', id, 'merchant'));
  }

  async save(input: MerchantSaveRequest, operator: OperatorContext) {
    const current = await this.bus.get('merchant', { key: input.name });
    this.bus.assertSameRecord(input.id, current && { id: current.record.merchantId }, 'merchant name');
    const base = current?.record;
    const minAmountKurus = input.minAmount ?? (base ? BigInt(base.minAmountKurus) : undefined);
    const maxAmountKurus = input.maxAmount ?? (base ? BigInt(base.maxAmountKurus) : undefined);
    if (minAmountKurus === undefined || maxAmountKurus === undefined) {
      throw new DomainError('validation_failed', 'invalid request: a new merchant needs minAmount and maxAmount');
    }
    const active = input.active ?? base?.active ?? true;
    const result = await this.bus.send(
      new ConfigureMerchantCommand(
        {
          name: input.name,
          active,
          minAmountKurus,
          maxAmountKurus,
          depositCommissionBp: input.depositCommissionPercent ?? base?.depositCommissionBp ?? 0,
          withdrawalCommissionBp: input.withdrawalCommissionPercent ?? base?.withdrawalCommissionBp ?? 0,
          overdraftLimitKurus: input.overdraftLimit ?? (base ? BigInt(base.overdraftLimitKurus) : 0n),
        },
        actorOf(operator),
      ),
    );
    let changed = result.changed;
    if (current?.deleted && !changed) {
      // Same fields as the deleted record: restoring it is the change.
      changed = (await this.bus.send(new SetMerchantActiveCommand(result.id, active, actorOf(operator), true))).changed;
    }
    return { success: true, created: !current, changed, record: await this.get(result.id) };
  }

  async toggle(id: string, active: boolean | undefined, operator: OperatorContext) {
    const result = await this.bus.send(new SetMerchantActiveCommand(id, active, actorOf(operator)));
    return { success: true, changed: result.changed, record: await this.get(id) };
  }

  async updateProviders(id: string, providerIds: string[], operator: OperatorContext) {
    const result = await this.bus.send(new UpdateMerchantProvidersCommand(id, providerIds, actorOf(operator)));
    return {
      success: true,
      changed: result.changed,
      changedProviders: result.changedProviders,
      record: await this.get(id),
    };
  }

  async delete(id: string, operator: OperatorContext) {
    const result = await this.bus.send(new DeleteMerchantCommand(id, actorOf(operator)));
    return { success: true, changed: result.changed, record: await this.get(id) };
  }
}
