'use strict';
/* global require, module, process */
/* eslint-disable @typescript-eslint/no-require-imports -- bench/load-process.mjs require()s this file */
// autocannon onResponse (in the load process, bench/load-process.mjs), shared by every phase:
// - the first few answers other than BENCH_EXPECT (else: other than 2xx) are printed with the
//   request that caused them, so a failing run shows the exact error, not only a count (unless
//   BENCH_EXPECT_QUIET is set: a test's own expected failures);
// - when BENCH_COLLECT_IDS_FILE is set (the app's H2H phase), the transaction_id of the first
//   BENCH_COLLECT_IDS_MAX successful creations is appended to that file for the status phase.
const { appendFileSync } = require('node:fs');

const MAX_SHOWN = 5;
const COLLECT_FILE = process.env.BENCH_COLLECT_IDS_FILE;
const COLLECT_MAX = Number(process.env.BENCH_COLLECT_IDS_MAX || 0);
const EXPECT = Number(process.env.BENCH_EXPECT || 0);
const QUIET = Boolean(process.env.BENCH_EXPECT_QUIET);
let shown = 0;
let collected = 0;

module.exports = function onResponse(status, body, context) {
  const ok = status >= 200 && status < 300;
  if (ok && COLLECT_FILE && collected < COLLECT_MAX && context.transactionId) {
    collected++;
    appendFileSync(COLLECT_FILE, `${context.transactionId}\n`);
  }
  if (EXPECT ? status === EXPECT : ok) return;
  if (QUIET || shown >= MAX_SHOWN) return;
  shown++;
  const phase = process.env.BENCH_PHASE || '?';
  process.stderr.write(
    `!! [${phase}] HTTP ${status}\n   request:  ${context.lastRequest}\n   response: ${String(body).slice(0, 2000)}\n`,
  );
};
