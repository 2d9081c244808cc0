/** The OpenAPI document of the gateway, generated from the contract's zod schemas. */
export { buildOpenApiDocument, generateComponentSchemas } from './document.js';
export type { JsonSchema, OpenApiDocument, OpenApiOperation, OpenApiOptions, OpenApiPathItem } from './document.js';
export { DEMO_CREDENTIALS, OPENAPI_EXAMPLE_CREDENTIALS } from './examples.js';
export * from './callback-verification.js';
