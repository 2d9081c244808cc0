'use strict';
/* global require, module */
/* eslint-disable @typescript-eslint/no-require-imports -- bench/load-process.mjs require()s this file */
// autocannon setupRequest (in the load process): every request is a NEW Merchant API deposit
// (POST /deposit, credentials in x-api-key / x-api-secret, no optional hash) with a unique
// transactionId.
const { randomBytes } = require('node:crypto');
const { threadId } = require('node:worker_threads');

const AMOUNT = 250;
const PREFIX = `M${Date.now().toString(36)}-${threadId}-${randomBytes(4).toString('hex')}-`;
let counter = 0;

module.exports = function setupRequest(request, context) {
  const body = JSON.stringify({
    transactionId: PREFIX + (counter++).toString(36),
    amount: AMOUNT,
    name: 'Bench',
    surname: 'Customer',
    username: 'bench',
  });
  context.lastRequest = `${request.method} ${request.path} ${JSON.stringify(request.headers)} ${body}`;
  return { ...request, body };
};
