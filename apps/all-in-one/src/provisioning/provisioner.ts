import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import {
  ConfigureBankAccountCommand,
  ConfigureInfrastructureCommand,
  ConfigureMerchantCommand,
  ConfigureOperatorCommand,
  ConfigureProviderCommand,
  type ActorRef,
} from '@transfergate/contracts';
import type { SqlDatabase } from '@transfergate/event-store';
import { configIdFor } from '@transfergate/ledger';
import { callbackUrlRefusal, egressPolicy } from '@transfergate/security';
import { BootstrapFileSchema, type BootstrapFile } from './bootstrap-file.js';

const ACTOR: ActorRef = { source: 'bootstrap' };

export class BootstrapFileError extends Error {}

export function readBootstrapFile(path: string): BootstrapFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new BootstrapFileError(`bootstrap file ${path}: ${(error as Error).message}`);
  }
  return parseBootstrap(raw, path);
}

export function parseBootstrap(raw: unknown, origin: string): BootstrapFile {
  const parsed = BootstrapFileSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new BootstrapFileError(`bootstrap file ${origin} is invalid:\n${problems}`);
  }
  return parsed.data;
}

/**
 * The egress policy over a file's callback URLs, before anything is written: a refused URL stops
 * the start with every refusal named (the ledger refuses them too, this only says it sooner).
 */
export function assertBootstrapCallbackTargets(file: BootstrapFile, origin: string, allowedTargets: string[]): void {
  const policy = egressPolicy(allowedTargets);
  const problems = file.infrastructures.flatMap((infra, i) =>
    (['callback_deposit', 'callback_withdrawal'] as const).flatMap((field) => {
      const refusal = callbackUrlRefusal(infra[field], policy);
      return refusal ? [`  - infrastructures.${i}.${field} (${infra.slug}): ${refusal}`] : [];
    }),
  );
  if (problems.length > 0) throw new BootstrapFileError(`bootstrap file ${origin} is invalid:\n${problems.join('\n')}`);
}

export interface ProvisionSummary {
  changed: number;
  unchanged: number;
}

/**
 * Applies a bootstrap file through the ledger's configuration commands, in dependency order.
 * Each command appends only what differs, so applying the same file again changes nothing.
 */
export async function applyBootstrap(
  commands: CommandBus,
  db: SqlDatabase,
  file: BootstrapFile,
): Promise<ProvisionSummary> {
  const summary: ProvisionSummary = { changed: 0, unchanged: 0 };
  const count = (result: { changed: boolean }) => (result.changed ? summary.changed++ : summary.unchanged++);

  const slugs = new Set(file.infrastructures.map((i) => i.slug));
  for (const infra of file.infrastructures) {
    count(
      await commands.execute(
        new ConfigureInfrastructureCommand(
          {
            name: infra.name,
            slug: infra.slug,
            apiForm: infra.apiForm,
            callbackFormat: infra.callbackFormat,
            callbackDeposit: infra.callback_deposit,
            callbackWithdrawal: infra.callback_withdrawal,
            webhookAllowedIps: infra.webhookAllowedIps,
          },
          ACTOR,
        ),
      ),
    );
  }
  for (const merchant of file.merchants) {
    const result = await commands.execute(
      new ConfigureMerchantCommand(
        {
          name: merchant.name,
          active: merchant.active,
          minAmountKurus: merchant.minAmount,
          maxAmountKurus: merchant.maxAmount,
          depositCommissionBp: merchant.depositCommissionPercent,
          withdrawalCommissionBp: merchant.withdrawalCommissionPercent,
          overdraftLimitKurus: merchant.overdraftLimit,
        },
        ACTOR,
      ),
    );
    count(result);
    for (const provider of merchant.providers) {
      if (!slugs.has(provider.infrastructure)) {
        const { rows } = await db.query('select 1 from rm_infrastructures where slug = $1', [provider.infrastructure]);
        if (rows.length === 0) {
          throw new BootstrapFileError(
            `provider ${provider.name}: unknown infrastructure slug "${provider.infrastructure}"`,
          );
        }
      }
      count(
        await commands.execute(
          new ConfigureProviderCommand(
            {
              name: provider.name,
              merchantId: result.id,
              infrastructureId: configIdFor.infrastructure(provider.infrastructure),
              apiKey: provider.apiKey,
              apiSecret: provider.apiSecret,
              apiAllowedIps: provider.apiAllowedIps,
              active: provider.active,
              sandbox: provider.sandbox,
            },
            ACTOR,
          ),
        ),
      );
    }
  }
  for (const account of file.bankAccounts) {
    count(
      await commands.execute(
        new ConfigureBankAccountCommand(
          {
            bank: account.bank,
            iban: account.iban,
            holderName: account.holderName,
            fast: account.fast,
            minAmountKurus: account.minAmount,
            maxAmountKurus: account.maxAmount,
            dailyLimitKurus: account.dailyLimit,
            active: account.active,
          },
          ACTOR,
        ),
      ),
    );
  }
  for (const operator of file.operators) {
    count(
      await commands.execute(
        new ConfigureOperatorCommand(
          { username: operator.username, password: operator.password, role: operator.role, active: operator.active },
          ACTOR,
        ),
      ),
    );
  }
  return summary;
}

/**
 * The first start without any operator creates `admin`, with ADMIN_PASSWORD or a generated
 * password that is returned (to be printed once on the console, never logged).
 */
export async function ensureFirstAdmin(
  commands: CommandBus,
  db: SqlDatabase,
  adminPassword: string | undefined,
): Promise<{ created: boolean; generatedPassword?: string }> {
  const { rows } = await db.query('select 1 from es_streams where stream_id like $1 limit 1', ['operator-%']);
  if (rows.length > 0) return { created: false };
  const password = adminPassword ?? randomBytes(12).toString('base64url');
  await commands.execute(
    new ConfigureOperatorCommand({ username: 'admin', password, role: 'admin', active: true }, ACTOR),
  );
  return { created: true, ...(adminPassword ? {} : { generatedPassword: password }) };
}
