'use strict';
/* global module, process */
// autocannon onResponse (worker thread): the first few non-2xx answers are printed with the
// request that caused them, so a failing run shows the exact error, not only a count.
const MAX_SHOWN = 5;
let shown = 0;

module.exports = function onResponse(status, body, context) {
  if (status >= 200 && status < 300) return;
  if (shown >= MAX_SHOWN) return;
  shown++;
  const phase = process.env.BENCH_PHASE || '?';
  process.stderr.write(
    `!! [${phase}] HTTP ${status}\n   request:  ${context.lastBody}\n   response: ${String(body).slice(0, 2000)}\n`,
  );
};
