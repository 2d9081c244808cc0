import { createHash } from 'node:crypto';
import { Validator } from '@seriousme/openapi-schema-validator';
import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../errors/error-codes.js';
import {
  H2hCallbackSchema,
  InfrastructureCallbackSchema,
  MerchantCallbackSchema,
  Md5CallbackSchema,
} from '../http/callbacks.js';
import { checkTurkishIban } from '../iban/iban.js';
import { COMPONENTS, ERROR_SCHEMAS } from './components.js';
import { buildOpenApiDocument, generateComponentSchemas } from './document.js';
import { GATEWAY_ENDPOINTS } from './endpoints.js';
import * as examples from './examples.js';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');
const DEMO = examples.DEMO_CREDENTIALS;

function collectRefs(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => collectRefs(item, into));
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') into.push(child);
      else collectRefs(child, into);
    }
  }
  return into;
}

describe('OpenAPI document', () => {
  const document = buildOpenApiDocument();

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(document as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(document.openapi).toBe('3.1.0');
  });

  it('converts every component schema without losing anything (unrepresentable: throw)', () => {
    for (const component of COMPONENTS) {
      expect(() => z.toJSONSchema(component.schema, { io: 'input' })).not.toThrow();
    }
    expect(Object.keys(generateComponentSchemas())).toEqual(COMPONENTS.map((component) => component.id));
  });

  it('resolves every $ref to a component', () => {
    const refs = collectRefs(document);
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of refs) {
      const name = /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1];
      expect(name && document.components.schemas[name]).toBeTruthy();
    }
  });

  it('takes body schemas from the zod contracts (input side: amount is number or string)', () => {
    const h2h = document.components.schemas.H2hDepositRequest!;
    expect(Object.keys(h2h.properties as object).sort()).toEqual(
      // The contract's fields, plus our optional extensions (the customer's bank; national id, e-mail
      // and phone for the risk blocklists; docs/integrators.md).
      [
        'email',
        'phone',
        'tckn',
        'amount',
        'apikey',
        'bank_code',
        'callback_url',
        'fullname',
        'hash',
        'transaction_id',
        'user_id',
        'username',
        'sender_name',
      ].sort(),
    );
    expect((h2h.required as string[]).sort()).toEqual(['amount', 'apikey', 'fullname', 'hash', 'transaction_id']);
    expect(document.components.schemas.Amount).toMatchObject({ type: ['number', 'string'] });
    expect(document.components.schemas.Amount!.description).toMatch(/TRY.*at most 2 decimals/);
  });

  it('lists every stable error code with its HTTP status', () => {
    expect(document['x-error-codes']).toEqual(ERROR_CODES);
    expect(document.components.schemas.ErrorCode!.enum).toEqual(Object.keys(ERROR_CODES));
    for (const [code, status] of Object.entries(ERROR_CODES)) {
      expect(document.info.description).toContain(`| \`${code}\` | ${status} |`);
    }
  });

  it('gives every operation a unique id, its success status and the statuses of its error codes', () => {
    const ids = new Set<string>();
    for (const endpoint of GATEWAY_ENDPOINTS) {
      for (const method of endpoint.methods) {
        const operation = document.paths[endpoint.path]![method]!;
        expect(ids.has(operation.operationId)).toBe(false);
        ids.add(operation.operationId);
        expect(operation.responses[String(endpoint.success.status)]).toBeDefined();
        for (const code of endpoint.errors.codes) {
          const response = operation.responses[String(ERROR_CODES[code])]!;
          expect(response.description).toContain(`\`${code}\``);
        }
        for (const name of endpoint.path.match(/\{(\w+)\}/g) ?? []) {
          expect(operation.parameters).toContainEqual(
            expect.objectContaining({ in: 'path', name: name.slice(1, -1), required: true }),
          );
        }
      }
    }
  });

  it('documents GET forms with query parameters and SEARCH on /test-auth as an extension', () => {
    const get = document.paths['/deposits/deposit-request']!.get!;
    expect(get.requestBody).toBeUndefined();
    expect(get.parameters!.map((parameter) => parameter.name)).toEqual(
      expect.arrayContaining(['ApiKey', 'OperationGuid', 'RequestId', 'SecurityKey', 'Amount', 'CustomerFullName']),
    );
    expect(document.paths['/test-auth']!['x-additional-methods']).toEqual(['SEARCH']);
    expect(document.paths['/deposit']!['x-additional-methods']).toContain('GET');
  });

  it('uses the server URL it is given, and relative servers by default', () => {
    expect(document.servers.map((server) => server.url)).toEqual(['/', '/api']);
    const absolute = buildOpenApiDocument({ serverUrl: 'https://gw.example.com/' });
    expect(absolute.servers.map((server) => server.url)).toEqual([
      'https://gw.example.com',
      'https://gw.example.com/api',
    ]);
  });
});

describe('OpenAPI examples', () => {
  it('parse with the schemas they illustrate', () => {
    for (const endpoint of GATEWAY_ENDPOINTS) {
      for (const example of Object.values(endpoint.request?.examples ?? {})) {
        expect(endpoint.request!.schema.safeParse(example.value).error).toBeUndefined();
      }
      for (const example of Object.values(endpoint.success.examples)) {
        expect(endpoint.success.schema.safeParse(example.value).error).toBeUndefined();
      }
      for (const code of endpoint.errors.codes) {
        const body = examples.errorExample(endpoint.errors.form, code);
        expect(ERROR_SCHEMAS[endpoint.errors.form].schema.safeParse(body).error).toBeUndefined();
      }
    }
    const callbacks = [
      [MerchantCallbackSchema, examples.CALLBACK_EXAMPLES.merchant],
      [H2hCallbackSchema, examples.CALLBACK_EXAMPLES.h2h],
      [InfrastructureCallbackSchema, examples.CALLBACK_EXAMPLES.infrastructure],
      [Md5CallbackSchema, examples.CALLBACK_EXAMPLES.md5],
    ] as const;
    for (const [schema, byName] of callbacks) {
      for (const example of Object.values(byName)) expect(schema.safeParse(example.value).error).toBeUndefined();
    }
  });

  it("carry signatures computed from their own values with the demo's credentials of their form", () => {
    const h2h = [
      ...Object.values(examples.H2H_DEPOSIT_REQUEST_EXAMPLES),
      ...Object.values(examples.H2H_WITHDRAWAL_REQUEST_EXAMPLES),
    ];
    for (const { value } of h2h) {
      const body = value as { apikey: string; transaction_id: string; amount: number; hash: string };
      expect(body.apikey).toBe(DEMO.h2h.apiKey);
      expect(body.hash).toBe(
        sha256(`${body.apikey}${body.transaction_id}${DEMO.h2h.apiSecret}${Math.round(body.amount)}`),
      );
    }
    const infrastructure = [
      ...Object.values(examples.INFRASTRUCTURE_DEPOSIT_REQUEST_EXAMPLES),
      ...Object.values(examples.INFRASTRUCTURE_WITHDRAWAL_REQUEST_EXAMPLES),
    ];
    for (const { value } of infrastructure) {
      const body = value as { ApiKey: string; OperationGuid: string; SecurityKey: string };
      expect(body.ApiKey).toBe(DEMO.infrastructure.apiKey);
      expect(body.SecurityKey).toBe(sha256(`${body.ApiKey}${DEMO.infrastructure.apiSecret}${body.OperationGuid}`));
    }
    const merchantBody = examples.MERCHANT_DEPOSIT_REQUEST_EXAMPLES.headers!.value as {
      transactionId: string;
      amount: number;
      hash: string;
    };
    expect(merchantBody.hash).toBe(
      sha256(
        `${DEMO.merchant.apiKey}${merchantBody.transactionId}${DEMO.merchant.apiSecret}${Math.round(merchantBody.amount)}`,
      ),
    );
    expect(examples.MERCHANT_DEPOSIT_REQUEST_EXAMPLES.body!.value).toMatchObject({
      ApiKey: DEMO.merchant.apiKey,
      ApiSecret: DEMO.merchant.apiSecret,
    });
    const callback = examples.CALLBACK_EXAMPLES.md5.confirmed!.value as Record<string, string | number>;
    expect(callback.signature).toBe(
      md5(`${callback.transactionId}${callback.status}${callback.amount}${callback.type}${DEMO.merchant.apiSecret}`),
    );
  });

  it('use valid TR IBANs', () => {
    const text = JSON.stringify(buildOpenApiDocument());
    const ibans = [...new Set(text.match(/TR\d{24}/g))];
    expect(ibans.length).toBeGreaterThanOrEqual(4);
    for (const iban of ibans) expect(checkTurkishIban(iban)).toEqual({ ok: true, iban });
  });

  it('have a message for every error code', () => {
    expect(Object.keys(examples.ERROR_EXAMPLE_MESSAGES).sort()).toEqual(Object.keys(ERROR_CODES).sort());
    const sample: ErrorCode = 'invalid_signature';
    expect(examples.errorExample('h2h', sample)).toEqual({
      status: false,
      code: 401,
      message: examples.ERROR_EXAMPLE_MESSAGES[sample],
      errorCode: sample,
    });
  });
});
