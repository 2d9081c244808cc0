'use strict';
/* global require, module, process */
/* eslint-disable @typescript-eslint/no-require-imports -- bench/load-process.mjs require()s this file */
// autocannon setupRequest (in the load process): POST /status/{identifier}, header credentials, no body;
// the identifier cycles over the lines of BENCH_STATUS_IDS_FILE (existing transactions for the
// app, existing primary keys for the floor).
const { readFileSync } = require('node:fs');

const IDS = readFileSync(process.env.BENCH_STATUS_IDS_FILE, 'utf8')
  .split('\n')
  .filter((line) => line.length > 0)
  .map((id) => `/status/${encodeURIComponent(id)}`);
if (IDS.length === 0) throw new Error(`no identifier in ${process.env.BENCH_STATUS_IDS_FILE}`);
let counter = 0;

module.exports = function setupRequest(request, context) {
  const path = IDS[counter++ % IDS.length];
  context.lastRequest = `${request.method} ${path} ${JSON.stringify(request.headers)}`;
  return { ...request, path };
};
