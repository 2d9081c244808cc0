import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../errors/error-codes.js';
import { callbackVerificationMarkdown } from './callback-verification.js';
import { COMPONENTS, ERROR_SCHEMAS, componentIdOf, componentRef } from './components.js';
import { GATEWAY_ENDPOINTS, type EndpointSpec, type HttpMethod } from './endpoints.js';
import { CALLBACK_EXAMPLES, errorExample, type Example } from './examples.js';

/**
 * The OpenAPI 3.1 document of the gateway, generated: every body schema is the contract's zod
 * schema converted with `z.toJSONSchema` (input side: what a caller may send), the operations come
 * from the endpoint catalogue, the error answers from `ERROR_CODES`.
 */

export type JsonSchema = Record<string, unknown>;

export interface OpenApiOperation {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  parameters?: Record<string, unknown>[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema; examples?: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, unknown>; headers?: unknown }>;
  security: Record<string, string[]>[];
  'x-error-codes': ErrorCode[];
}

export type OpenApiPathItem = Partial<Record<HttpMethod, OpenApiOperation>> & { 'x-additional-methods'?: string[] };

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string; license?: unknown };
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, OpenApiPathItem>;
  webhooks: Record<string, { post: Record<string, unknown> }>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, Record<string, unknown>>;
  };
  'x-error-codes': Record<ErrorCode, number>;
}

export interface OpenApiOptions {
  /** Base URL of the gateway; default relative (`/`), so the document works behind any host. */
  serverUrl?: string;
  /** The service version for `info.version`. */
  version?: string;
}

const JSON_SCHEMA_OPTIONS = {
  target: 'draft-2020-12',
  io: 'input',
  unrepresentable: 'any',
} as const;

/** One zod schema (that is no component) as JSON Schema, e.g. a header or a path parameter. */
function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, JSON_SCHEMA_OPTIONS) as JsonSchema;
  return rest;
}

/** All components in one pass over a registry, so nested components become `$ref`s. */
export function generateComponentSchemas(): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string; description: string; examples?: unknown[] }>();
  for (const entry of COMPONENTS) {
    registry.add(entry.schema, {
      id: entry.id,
      description: entry.description,
      ...(entry.examples ? { examples: entry.examples } : {}),
    });
  }
  const { schemas } = z.toJSONSchema(registry, {
    ...JSON_SCHEMA_OPTIONS,
    metadata: registry,
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  // Shared `$defs` would only appear for a recursive schema; the wire contract has none.
  if (schemas.__shared) throw new Error('OpenAPI components need shared $defs (a recursive schema?)');
  const result: Record<string, JsonSchema> = {};
  for (const entry of COMPONENTS) {
    // `$id` of the registry output is a fragment URI, which JSON Schema forbids; the name is the key.
    const { $schema: _dialect, $id: _id, ...schema } = schemas[entry.id]!;
    const properties = schema.properties as Record<string, JsonSchema> | undefined;
    for (const [name, description] of Object.entries(entry.properties ?? {})) {
      const property = properties?.[name];
      if (!property) throw new Error(`OpenAPI component ${entry.id} has no property ${name}`);
      property.description = description;
    }
    result[entry.id] = schema;
  }
  return result;
}

const SECURITY_SCHEMES = {
  ApiKeyHeader: {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: 'API key issued per merchant in the panel (also accepted as ApiKey/apiKey in the body or query).',
  },
  ApiSecretHeader: {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-secret',
    description: 'The matching API secret (also accepted as ApiSecret/apiSecret in the body or query).',
  },
  BasicAuth: {
    type: 'http',
    scheme: 'basic',
    description: 'HTTP Basic with base64(<API_KEY>:<API_SECRET>).',
  },
};

/** Headers, Basic, or (the empty requirement) the credentials in the body or query string. */
const API_KEY_SECRET_SECURITY: Record<string, string[]>[] = [
  { ApiKeyHeader: [], ApiSecretHeader: [] },
  { BasicAuth: [] },
  {},
];

const BODY_METHODS: HttpMethod[] = ['post', 'put', 'patch'];

const TAGS = [
  {
    name: 'H2H API',
    description: 'Host-to-host: no redirect, the receiving IBAN comes back in the answer. Mandatory hash.',
  },
  {
    name: 'Infrastructure API',
    description: 'For betting-platform infrastructure providers: PascalCase fields, SecurityKey signature.',
  },
  { name: 'Merchant API', description: 'ApiKey + ApiSecret, optional hash; deposits go through a payment page.' },
  { name: 'Status', description: 'Transaction status, supported banks, credential test.' },
  { name: 'Health', description: 'Liveness and module health.' },
  {
    name: 'Sandbox',
    description:
      'Test providers (marked sandbox by an admin) decide their own transactions through the API, to see every callback before going live.',
  },
  {
    name: 'Incoming webhooks',
    description:
      'Status updates from upstream payment providers, by infrastructure slug, from allow-listed IP ranges only.',
  },
  {
    name: 'Callbacks',
    description: 'Outgoing callbacks (webhooks) POSTed to the callback URL registered on the infrastructure.',
  },
];

function examplesOf(examples: Record<string, Example>) {
  return Object.fromEntries(
    Object.entries(examples).map(([name, example]) => [
      name,
      {
        summary: example.summary,
        ...(example.description ? { description: example.description } : {}),
        value: example.value,
      },
    ]),
  );
}

function jsonContent(schema: JsonSchema, examples?: Record<string, Example>) {
  return { 'application/json': { schema, ...(examples ? { examples: examplesOf(examples) } : {}) } };
}

/** Query parameters from the properties of a request component (the GET forms). */
function queryParameters(endpoint: EndpointSpec, components: Record<string, JsonSchema>): Record<string, unknown>[] {
  if (!endpoint.request) return [];
  const schema = components[componentIdOf(endpoint.request.schema)]!;
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const example = (Object.values(endpoint.request.examples)[0]?.value ?? {}) as Record<string, unknown>;
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...propertySchema } = property;
    return {
      name,
      in: 'query',
      required: endpoint.request!.required && required.has(name),
      ...(description ? { description } : {}),
      schema: propertySchema,
      ...(example[name] !== undefined ? { example: example[name] } : {}),
    };
  });
}

function errorResponses(endpoint: EndpointSpec): OpenApiOperation['responses'] {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of endpoint.errors.codes) {
    const status = ERROR_CODES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: OpenApiOperation['responses'] = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const examples = Object.fromEntries(
      codes.map((code) => [code, { summary: code, value: errorExample(endpoint.errors.form, code) }]),
    );
    responses[String(status)] = {
      description: `Refused: errorCode ${codes.map((code) => `\`${code}\``).join(', ')}.`,
      content: {
        'application/json': { schema: componentRef(ERROR_SCHEMAS[endpoint.errors.form].id), examples },
      },
      ...(status === 429
        ? {
            headers: {
              'Retry-After': {
                description: 'Seconds until the limit resets.',
                schema: jsonSchemaOf(z.number().int().nonnegative()),
              },
            },
          }
        : {}),
    };
  }
  return responses;
}

function operation(
  endpoint: EndpointSpec,
  method: HttpMethod,
  components: Record<string, JsonSchema>,
): OpenApiOperation {
  const suffix = endpoint.methods.length > 1 ? method[0]!.toUpperCase() + method.slice(1) : '';
  const inBody = BODY_METHODS.includes(method);
  const parameters = [
    ...(endpoint.pathParams ?? []).map((param) => ({
      name: param.name,
      in: 'path',
      required: true,
      description: param.description,
      schema: jsonSchemaOf(param.schema),
    })),
    ...(inBody ? [] : queryParameters(endpoint, components)),
  ];
  const extra = endpoint.extraMethods?.length
    ? ` Also routed: ${endpoint.extraMethods.join(', ')} (see x-additional-methods).`
    : '';
  const request = endpoint.request;
  return {
    operationId: `${endpoint.operationId}${suffix}`,
    tags: [endpoint.tag],
    summary: endpoint.summary,
    description: endpoint.description + extra,
    ...(parameters.length ? { parameters } : {}),
    ...(inBody && request
      ? {
          requestBody: {
            required: request.required,
            content: jsonContent(componentRef(componentIdOf(request.schema)), request.examples),
          },
        }
      : {}),
    responses: {
      [String(endpoint.success.status)]: {
        description: endpoint.success.description,
        // HEAD answers the headers of GET without a body.
        ...(method === 'head'
          ? {}
          : { content: jsonContent(componentRef(componentIdOf(endpoint.success.schema)), endpoint.success.examples) }),
      },
      ...errorResponses(endpoint),
    },
    security: endpoint.security === 'apiKeySecret' ? API_KEY_SECRET_SECURITY : [],
    'x-error-codes': endpoint.errors.codes,
  };
}

const WEBHOOKS = [
  {
    name: 'merchantCallback',
    id: 'MerchantCallback',
    summary: 'Merchant API callback',
    examples: CALLBACK_EXAMPLES.merchant,
  },
  {
    name: 'h2hCallback',
    id: 'H2hCallback',
    summary: 'H2H API callback (transactions created at /deposit/bank and /withdrawal/bank)',
    examples: CALLBACK_EXAMPLES.h2h,
  },
  {
    name: 'infrastructureCallback',
    id: 'InfrastructureCallback',
    summary: 'Infrastructure API callback (PascalCase)',
    examples: CALLBACK_EXAMPLES.infrastructure,
  },
  { name: 'md5Callback', id: 'Md5Callback', summary: 'MD5-signed callback variant', examples: CALLBACK_EXAMPLES.md5 },
];

function webhooks(): OpenApiDocument['webhooks'] {
  const header = (name: string, description: string) => ({
    name,
    in: 'header',
    required: true,
    description,
    schema: jsonSchemaOf(z.string()),
  });
  const headers = [
    header('webhook-id', 'Standard Webhooks: unique id of this message (the same on every retry).'),
    header('webhook-timestamp', 'Standard Webhooks: Unix seconds of this attempt.'),
    header(
      'webhook-signature',
      'Standard Webhooks: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>"> keyed with the provider secret.',
    ),
  ];
  return Object.fromEntries(
    WEBHOOKS.map((hook) => [
      hook.name,
      {
        post: {
          operationId: hook.name,
          tags: ['Callbacks'],
          summary: hook.summary,
          description:
            'Sent when a transaction is approved or rejected in the panel, to the registered callback_deposit / ' +
            'callback_withdrawal URL of the infrastructure only; the infrastructure’s callbackFormat selects the body. ' +
            'Retried with backoff until a 2xx arrives within 15 s (at-least-once; deduplicate by webhook-id).',
          parameters: headers,
          requestBody: { required: true, content: jsonContent(componentRef(hook.id), hook.examples) },
          responses: { '2XX': { description: 'Acknowledged. Anything else, or no answer in 15 s, is retried.' } },
        },
      },
    ]),
  );
}

function errorCodeTable(): string {
  const rows = (Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => `| \`${code}\` | ${ERROR_CODES[code]} |`);
  return ['| errorCode | HTTP status |', '|---|---|', ...rows].join('\n');
}

function description(): string {
  return [
    'Bank-transfer (havale/EFT/FAST) deposits and withdrawals in TRY. Three integration forms share one approval ' +
      'flow and one ledger: the **Merchant API** (`/deposit`, `/withdrawal`, single endpoint `POST /`), the ' +
      '**Infrastructure API** (PascalCase, `/deposits/deposit-request`, `/withdraws/withdraw-request`) and the ' +
      '**H2H API** (`/deposit/bank`, `/withdrawal/bank`).',
    '**`/api` prefix.** Every path is also served under `/api` (for example `/api/deposit/bank`): pick the second ' +
      'server entry. The root endpoints are `/api` without a trailing slash.',
    '**Money.** Amounts are JSON numbers (or numeric strings) of Turkish lira (TRY) with at most 2 decimals ' +
      '(250 means 250.00), greater than zero; held as integer kuruş, never floats. Signatures use round(amount), ' +
      'round-half-up to an integer of the amount as sent.',
    '**Authentication.** API key and secret, issued per merchant in the panel, in the `x-api-key` / `x-api-secret` ' +
      'headers (recommended), HTTP Basic base64(key:secret), the JSON body (`ApiKey`/`apiKey`, `ApiSecret`/`apiSecret`) ' +
      'or the query string. H2H requests carry `apikey` and a mandatory `hash` = SHA256(apikey + transaction_id + ' +
      'apiSecret + round(amount)); Infrastructure requests carry `ApiKey` and `SecurityKey` = SHA256(ApiKey + ' +
      'ApiSecret + OperationGuid); the Merchant API `hash` = SHA256(apiKey + transactionId + apiSecret + ' +
      'round(amount)) is optional. Digests are hex, compared case-insensitively. Callers may be limited to an IP ' +
      'allow-list per provider.',
    '**Idempotency.** Your transaction id is unique per provider. A repeat with the same payload answers the first ' +
      'response again; a repeat with a different payload is `409 duplicate_transaction`.',
    '**Errors.** Real HTTP statuses and a body in the shape of the form’s success body plus a stable machine ' +
      '`errorCode`: H2H `{status: false, code, message, errorCode}`; Merchant API, Infrastructure deposits and the ' +
      'other endpoints `{success: false, message, errorCode}`; Infrastructure withdrawals `{Success: false, Message, ' +
      'errorCode}`. Validation errors add `details.fields`. Never a stack trace; a 500 `internal_error` means a bug ' +
      'on our side.',
    errorCodeTable(),
    callbackVerificationMarkdown(),
  ].join('\n\n');
}

/** The OpenAPI 3.1 document of the gateway endpoints. */
export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const components = generateComponentSchemas();
  const paths: Record<string, OpenApiPathItem> = {};
  for (const endpoint of GATEWAY_ENDPOINTS) {
    const item = (paths[endpoint.path] ??= {});
    if (endpoint.extraMethods?.length) item['x-additional-methods'] = endpoint.extraMethods;
    for (const method of endpoint.methods) {
      if (item[method]) throw new Error(`duplicate OpenAPI operation ${method} ${endpoint.path}`);
      item[method] = operation(endpoint, method, components);
    }
  }
  const base = (options.serverUrl ?? '').replace(/\/+$/, '');
  return {
    openapi: '3.1.0',
    info: {
      title: 'transfergate gateway API',
      version: options.version ?? '0.1.0',
      description: description(),
    },
    servers: [
      { url: base || '/', description: 'Paths as listed' },
      { url: `${base}/api`, description: 'The same paths under the /api prefix' },
    ],
    tags: TAGS,
    paths,
    webhooks: webhooks(),
    components: { schemas: components, securitySchemes: SECURITY_SCHEMES },
    'x-error-codes': { ...ERROR_CODES },
  };
}
