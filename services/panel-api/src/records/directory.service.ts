import { Injectable } from '@nestjs/common';
import {
  ConfigureBankAccountCommand,
  ConfigureInfrastructureCommand,
  DomainError,
  checkTurkishIban,
  type BankAccountSaveRequest,
  type InfrastructureSaveRequest,
} from '@transfergate/contracts';
import { actorOf, type OperatorContext } from '../auth/decorators.js';
import { RecordBus } from './record-commands.js';
import { bankAccountView, infrastructureView } from './records.presenter.js';

/** The fields a new record lacks: answered 400 with all of them named. */
function assertComplete(what: string, fields: Record<string, unknown>): void {
  const missing = Object.entries(fields)
    .filter(([, value]) => value === undefined)
    .map(([name]) => name);
  if (missing.length > 0)
    throw new DomainError('validation_failed', `invalid request: a new ${what} needs ${missing.join(', ')}`);
}

/**
 * Infrastructures (keyed by slug) and receiving bank accounts (keyed by IBAN). `save` creates the
 * record when the key is new and otherwise changes the fields given. Neither is deleted: an
 * infrastructure is referenced by providers, and a bank account is switched off with active:false.
 */
@Injectable()
export class DirectoryService {
  constructor(private readonly bus: RecordBus) {}

  async listInfrastructures() {
    return { items: (await this.bus.list('infrastructure')).map(infrastructureView) };
  }

  async getInfrastructure(id: string) {
    return infrastructureView(await this.bus.require('infrastructure', id, 'infrastructure'));
  }

  async saveInfrastructure(input: InfrastructureSaveRequest, operator: OperatorContext) {
    const current = await this.bus.get('infrastructure', { key: input.slug });
    this.bus.assertSameRecord(input.id, current && { id: current.record.infrastructureId }, 'slug');
    const base = current?.record;
    const name = input.name ?? base?.name;
    const apiForm = input.apiForm ?? base?.apiForm;
    const callbackFormat = input.callbackFormat ?? base?.callbackFormat;
    const callbackDeposit = input.callback_deposit ?? base?.callbackDeposit;
    const callbackWithdrawal = input.callback_withdrawal ?? base?.callbackWithdrawal;
    assertComplete('infrastructure', {
      name,
      apiForm,
      callbackFormat,
      callback_deposit: callbackDeposit,
      callback_withdrawal: callbackWithdrawal,
    });
    const result = await this.bus.send(
      new ConfigureInfrastructureCommand(
        {
          name: name!,
          slug: input.slug,
          apiForm: apiForm!,
          callbackFormat: callbackFormat!,
          callbackDeposit: callbackDeposit!,
          callbackWithdrawal: callbackWithdrawal!,
          webhookAllowedIps: input.webhookAllowedIps ?? base?.webhookAllowedIps ?? [],
        },
        actorOf(operator),
      ),
    );
    return {
      success: true,
      created: !current,
      changed: result.changed,
      record: await this.getInfrastructure(result.id),
    };
  }

  async listBankAccounts() {
    return { items: (await this.bus.list('bankAccount')).map(bankAccountView) };
  }

  async getBankAccount(id: string) {
    return bankAccountView(await this.bus.require('bankAccount', id, 'bank account'));
  }

  async saveBankAccount(input: BankAccountSaveRequest, operator: OperatorContext) {
    const iban = checkTurkishIban(input.iban);
    if (!iban.ok) throw new DomainError('invalid_iban', `${input.iban}: ${iban.reason}`);
    const current = await this.bus.get('bankAccount', { key: iban.iban });
    this.bus.assertSameRecord(input.id, current && { id: current.record.bankAccountId }, 'IBAN');
    const base = current?.record;
    const bank = input.bank ?? base?.bank;
    const holderName = input.holderName ?? base?.holderName;
    const minAmountKurus = input.minAmount ?? (base ? BigInt(base.minAmountKurus) : undefined);
    const maxAmountKurus = input.maxAmount ?? (base ? BigInt(base.maxAmountKurus) : undefined);
    const dailyLimitKurus = input.dailyLimit ?? (base ? BigInt(base.dailyLimitKurus) : undefined);
    assertComplete('bank account', {
      bank,
      holderName,
      minAmount: minAmountKurus,
      maxAmount: maxAmountKurus,
      dailyLimit: dailyLimitKurus,
    });
    if (minAmountKurus! > maxAmountKurus!) {
      throw new DomainError('validation_failed', 'invalid request: minAmount must not exceed maxAmount');
    }
    const result = await this.bus.send(
      new ConfigureBankAccountCommand(
        {
          bank: bank!,
          iban: iban.iban,
          holderName: holderName!,
          fast: input.fast ?? base?.fast ?? true,
          minAmountKurus: minAmountKurus!,
          maxAmountKurus: maxAmountKurus!,
          dailyLimitKurus: dailyLimitKurus!,
          active: input.active ?? base?.active ?? true,
        },
        actorOf(operator),
      ),
    );
    return { success: true, created: !current, changed: result.changed, record: await this.getBankAccount(result.id) };
  }
}
