import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import {
  ChangeProviderCommand,
  ConfigureProviderCommand,
  DeleteProviderCommand,
  DomainError,
  EndProviderSecretOverlapCommand,
  RevealProviderSecretCommand,
  RotateProviderSecretCommand,
  type ProviderSaveRequest,
} from '@transfergate/contracts';
import { actorOf, type OperatorContext } from '../auth/decorators.js';
import { PANEL_SETTINGS, type PanelSettings } from '../panel.settings.js';
import { RecordBus } from './record-commands.js';
import { providerView } from './records.presenter.js';

/** 128-bit API key and 256-bit API secret, generated here, never chosen by an operator. */
export const generateApiKey = () => `ak_${randomBytes(16).toString('hex')}`;
export const generateApiSecret = () => `sk_${randomBytes(32).toString('base64url')}`;

const SHOWN_ONCE = 'store the API secret now: it is not shown again (reveal-secret needs providers.reveal_secret)';

/**
 * Providers (API clients). `save` is keyed by name: a new name creates the provider with a generated
 * key and secret (ConfigureProviderCommand seals the secret) and the answer carries the secret this
 * one time; a known name changes merchant, infrastructure, IP allow-list or active and keeps the key
 * and the sealed secret. `delete` is soft (ProviderDeleted: deactivated, marked deleted, refused by
 * the gateway as provider_disabled); saving the name again restores it with its old credentials.
 */
@Injectable()
export class ProvidersService {
  constructor(
    private readonly bus: RecordBus,
    @Inject(PANEL_SETTINGS) private readonly settings: PanelSettings,
  ) {}

  async list(includeDeleted: boolean, merchantId?: string) {
    const rows = await this.bus.list('provider', { includeDeleted, ...(merchantId ? { merchantId } : {}) });
    return { items: rows.map(providerView) };
  }

  async get(id: string) {
    return providerView(await this.bus.require('provider', id, 'provider'));
  }

  async save(input: ProviderSaveRequest, operator: OperatorContext) {
    const current = await this.bus.get('provider', { key: input.name });
    this.bus.assertSameRecord(input.id, current && { id: current.record.providerId }, 'provider name');
    if (input.merchantId !== undefined) {
      const merchant = await this.bus.get('merchant', { id: input.merchantId });
      if (!merchant || merchant.deleted) throw new DomainError('not_found', `no merchant ${input.merchantId}`);
    }
    if (input.infrastructureId !== undefined && !(await this.bus.get('infrastructure', { id: input.infrastructureId })))
      throw new DomainError('not_found', `no infrastructure ${input.infrastructureId}`);

    if (current) {
      const result = await this.bus.send(
        new ChangeProviderCommand(
          current.record.providerId,
          {
            ...(input.merchantId !== undefined ? { merchantId: input.merchantId } : {}),
            ...(input.infrastructureId !== undefined ? { infrastructureId: input.infrastructureId } : {}),
            ...(input.apiAllowedIps !== undefined ? { apiAllowedIps: input.apiAllowedIps } : {}),
            ...(input.active !== undefined ? { active: input.active } : {}),
            ...(input.sandbox !== undefined ? { sandbox: input.sandbox } : {}),
          },
          actorOf(operator),
        ),
      );
      return { success: true, created: false, changed: result.changed, record: await this.get(result.id) };
    }

    if (input.merchantId === undefined || input.infrastructureId === undefined) {
      throw new DomainError(
        'validation_failed',
        'invalid request: a new provider needs merchantId and infrastructureId',
      );
    }
    const apiKey = generateApiKey();
    const apiSecret = generateApiSecret();
    const result = await this.bus.send(
      new ConfigureProviderCommand(
        {
          name: input.name,
          merchantId: input.merchantId,
          infrastructureId: input.infrastructureId,
          apiKey,
          apiSecret,
          apiAllowedIps: input.apiAllowedIps ?? [],
          active: input.active ?? true,
          ...(input.sandbox ? { sandbox: true } : {}),
        },
        actorOf(operator),
      ),
    );
    return {
      success: true,
      created: true,
      changed: result.changed,
      record: await this.get(result.id),
      apiKey,
      apiSecret,
      message: SHOWN_ONCE,
    };
  }

  /** The ledger records the reveal (who, from where) as an event before it answers. */
  async revealSecret(id: string, operator: OperatorContext) {
    const revealed = await this.bus.send(new RevealProviderSecretCommand(id, actorOf(operator)));
    return {
      success: true,
      id: revealed.providerId,
      name: revealed.name,
      apiKey: revealed.apiKey,
      apiSecret: revealed.apiSecret,
    };
  }

  /**
   * A new generated secret. The one it replaces stays accepted for `overlapSeconds` (absent: the
   * configured default; 0: a hard cut), so integrators can deploy the new one without failing a
   * request; every gateway is told to drop its cached record before this answers (docs/security.md).
   */
  async rotateSecret(id: string, overlapSeconds: number | undefined, operator: OperatorContext) {
    const current = await this.bus.require('provider', id, 'provider');
    if (current.deleted) throw new DomainError('not_found', `provider ${id} is deleted`);
    const apiSecret = generateApiSecret();
    const overlap = overlapSeconds ?? this.settings.secretRotationOverlapSeconds;
    await this.bus.send(new RotateProviderSecretCommand(id, apiSecret, overlap, actorOf(operator)));
    const record = await this.get(id);
    return {
      success: true,
      id,
      apiKey: current.record.apiKey,
      apiSecret,
      previousSecretValidUntil: record.previousSecretValidUntil,
      record,
      message: SHOWN_ONCE,
    };
  }

  /** Ends the overlap window now: only the current secret is accepted from the answer on. */
  async endSecretOverlap(id: string, operator: OperatorContext) {
    const result = await this.bus.send(new EndProviderSecretOverlapCommand(id, actorOf(operator)));
    return { success: true, changed: result.changed, record: await this.get(id) };
  }

  async delete(id: string, operator: OperatorContext) {
    const result = await this.bus.send(new DeleteProviderCommand(id, actorOf(operator)));
    return { success: true, changed: result.changed, record: await this.get(id) };
  }
}
