import { Controller, Get, Inject, Optional, Req } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { DashboardQuery, ListRecordsQuery, kurusToNumber, type PermissionCatalogue } from '@transfergate/contracts';
import { BUILT_IN_ROLES, PERMISSIONS } from '../auth/permissions.js';
import { ApiSettingsService } from '../settings/api-settings.service.js';
import { LIVE_GATEWAY_SETTINGS, type LiveGatewaySettings } from '../settings/live-gateway-settings.js';
import { CREDENTIAL_SPELLINGS, FORM_ENDPOINTS, SIGNATURE_RULES } from './api-security.js';

const paths = (path: string) => [`api/config/${path}`, `config/${path}`];

/**
 * The contract's public config reads (GET, 200, no token). Nothing secret: no key, secret, hash,
 * callback URL or IP list. The dashboard is public because the contract lists it here; it carries
 * only today's counts and volumes, no transaction, customer or merchant.
 */
@Controller()
export class ConfigController {
  constructor(
    private readonly queries: QueryBus,
    private readonly settings: ApiSettingsService,
    @Optional() @Inject(LIVE_GATEWAY_SETTINGS) private readonly live?: LiveGatewaySettings,
  ) {}

  /** The permission catalogue with descriptions and the built-in roles. */
  @Get(paths('permissions'))
  permissions(): PermissionCatalogue {
    return {
      permissions: Object.entries(PERMISSIONS).map(([name, description]) => ({ name, description })),
      builtInRoles: Object.entries(BUILT_IN_ROLES).map(([name, permissions]) => ({ name, permissions })),
    };
  }

  /** Where payment links point and where this API answers (as the caller reached it). */
  @Get(paths('domains'))
  async domains(@Req() request: FastifyRequest) {
    const { payment_page_url } = await this.settings.publicView();
    const apiBaseUrl = `${request.protocol}://${request.host}`;
    return {
      paymentPageUrl: payment_page_url,
      paymentLinkTemplate: `${payment_page_url}/payment/{token}`,
      apiBaseUrl,
      apiPrefixedBaseUrl: `${apiBaseUrl}/api`,
    };
  }

  /** Which credential spellings and signature rules the gateway accepts; no key or secret. */
  @Get(paths('api-security'))
  async apiSecurity() {
    const settings = await this.settings.publicView();
    return {
      credentials: CREDENTIAL_SPELLINGS,
      httpBasic: { supported: true, format: 'Authorization: Basic base64(<api key>:<api secret>)' },
      precedence: 'headers, then HTTP Basic, then JSON body, then query string',
      recommended: 'headers x-api-key and x-api-secret',
      signatures: SIGNATURE_RULES,
      digests: {
        encoding: 'hex',
        caseSensitive: false,
        comparison: 'constant time',
        roundAmount: 'round half up to an integer of the amount as sent',
      },
      ipAllowList: {
        supported: true,
        scope: 'per provider (API calls) and per infrastructure (incoming webhooks)',
        format: 'IPv4 or IPv6 address or CIDR range',
        empty: 'allows every address',
      },
      testAuthEnabled: settings.testAuthEnabled,
      testAuthOpen: settings.testAuthEnabled || this.live?.environment === 'development',
      // The limit enforced now: a stored change does not reach the running limiter (see ApiSettingsService).
      rateLimitPerMinute: this.settings.enforcedRateLimitPerMinute ?? settings.rateLimitPerMinute,
    };
  }

  /** Today's deposits and withdrawals (Turkish business day, UTC+3) and the open queues. */
  @Get(paths('dashboard'))
  async dashboard() {
    const data = await this.queries.execute(new DashboardQuery());
    const summary = (type: 'deposit' | 'withdrawal') => {
      const rows = data.today.filter((r) => r.type === type);
      const byState = Object.fromEntries(
        rows.map((r) => [r.state, { count: r.count, volume: kurusToNumber(BigInt(r.volumeKurus)) }]),
      );
      const total = rows.reduce((sum, r) => sum + BigInt(r.volumeKurus), 0n);
      return { count: rows.reduce((n, r) => n + r.count, 0), volume: kurusToNumber(total), byState };
    };
    return {
      day: data.day,
      timeZone: 'UTC+03:00',
      deposits: summary('deposit'),
      withdrawals: summary('withdrawal'),
      queues: data.queues,
    };
  }

  /**
   * The infrastructures integrators can be set up on: names, slugs, API form and callback format,
   * with the gateway and webhook paths. Callback URLs and IP lists are left out: not secret, but
   * internal to each integration.
   */
  @Get(paths('integrations'))
  async integrations() {
    const rows = await this.queries.execute(new ListRecordsQuery('infrastructure'));
    return {
      items: rows.map(({ record }) => ({
        name: record.name,
        slug: record.slug,
        apiForm: record.apiForm,
        callbackFormat: record.callbackFormat,
        endpoints: FORM_ENDPOINTS[record.apiForm],
        webhooks: {
          deposit: `POST /deposit/callback/${record.slug}`,
          withdrawal: `POST /withdraw/callback/${record.slug}`,
        },
      })),
    };
  }

  /** The API settings integrators may see (the values; not who changed them). */
  @Get(paths('settings/public'))
  async publicSettings() {
    return this.settings.publicView();
  }
}
