'use strict';
/* global require, module */
/* eslint-disable @typescript-eslint/no-require-imports -- bench/load-process.mjs require()s this file */
// autocannon setupRequest (runs in the load process, bench/load-process.mjs, which require()s it by path):
// every request is a NEW H2H deposit with a unique transaction_id and a valid hash.
// The floor server gets exactly the same bodies.
const { createHash, randomBytes } = require('node:crypto');
const { threadId } = require('node:worker_threads');

const API_KEY = 'ak_bench_1';
const API_SECRET = 'sk_bench_1';
const AMOUNT = 250; // TL; round(amount) in the hash is "250"
const PREFIX = `B${Date.now().toString(36)}-${threadId}-${randomBytes(4).toString('hex')}-`;
let counter = 0;

module.exports = function setupRequest(request, context) {
  const transactionId = PREFIX + (counter++).toString(36);
  const hash = createHash('sha256')
    .update(API_KEY + transactionId + API_SECRET + String(Math.round(AMOUNT)))
    .digest('hex');
  const body = JSON.stringify({
    apikey: API_KEY,
    transaction_id: transactionId,
    amount: AMOUNT,
    fullname: 'Bench Customer',
    hash,
  });
  context.transactionId = transactionId; // collected by h2h-response.cjs for the status phase
  context.lastRequest = `${request.method} ${request.path} ${body}`;
  return { ...request, body };
};
