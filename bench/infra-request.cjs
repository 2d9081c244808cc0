'use strict';
/* global require, module */
/* eslint-disable @typescript-eslint/no-require-imports -- bench/load-process.mjs require()s this file */
// autocannon setupRequest (in the load process): every request is a NEW Infrastructure API deposit
// (POST /deposits/deposit-request, PascalCase JSON) with a unique RequestId and OperationGuid and
// SecurityKey = SHA256(ApiKey + ApiSecret + OperationGuid).
const { createHash, randomBytes, randomUUID } = require('node:crypto');
const { threadId } = require('node:worker_threads');

const API_KEY = 'ak_bench_i';
const API_SECRET = 'sk_bench_i';
const AMOUNT = 250;
const PREFIX = `I${Date.now().toString(36)}-${threadId}-${randomBytes(4).toString('hex')}-`;
let counter = 0;

module.exports = function setupRequest(request, context) {
  const operationGuid = randomUUID();
  const body = JSON.stringify({
    ApiKey: API_KEY,
    OperationGuid: operationGuid,
    RequestId: PREFIX + (counter++).toString(36),
    SecurityKey: createHash('sha256')
      .update(API_KEY + API_SECRET + operationGuid)
      .digest('hex'),
    Amount: AMOUNT,
    CustomerFullName: 'Bench Customer',
  });
  context.lastRequest = `${request.method} ${request.path} ${body}`;
  return { ...request, body };
};
