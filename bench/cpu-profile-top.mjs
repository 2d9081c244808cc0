// The top of a .cpuprofile (bench/deposit-cpu.mjs's BENCH_CPU_PROF): self time per function and
// self time per package / source file, as shares of the sampled time, so a profile can be read
// without DevTools; then each function's total time (its own and its callees', once per sample
// however deep it recurses) as a share of the busy time (the samples other than idle), to find
// which of this repository's paths holds the framework and syscall time that self time spreads out.
//   node bench/cpu-profile-top.mjs <file.cpuprofile> [rows, default 40] [regex: total-time rows shown]
import { readFileSync } from 'node:fs';

const [file, rowsArg, totalFilter] = process.argv.slice(2);
if (!file) throw new Error('usage: cpu-profile-top.mjs <file.cpuprofile> [rows]');
const rows = Number(rowsArg || 40);
const profile = JSON.parse(readFileSync(file, 'utf8'));

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfUs = new Map();
// timeDeltas[i] is the time before samples[i]; attribute it to that sample's node.
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0);

/** node_modules package, or the workspace file, or the V8 pseudo-frame. */
function placeOf(url) {
  if (!url) return '(native)';
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = path.slice(nm + 14).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const ws = path.match(/\/(libs|services|apps)\/([^/]+)\/dist\/(.*)$/);
  if (ws) return `${ws[1]}/${ws[2]}/${ws[3]}`;
  return path.startsWith('node:') ? path : path.split('/').slice(-2).join('/');
}

const fnSelf = new Map();
const placeSelf = new Map();
for (const [id, us] of selfUs) {
  const { callFrame } = byId.get(id);
  const place = placeOf(callFrame.url);
  const fn = `${callFrame.functionName || '(anonymous)'}  ${place}:${callFrame.lineNumber + 1}`;
  fnSelf.set(fn, (fnSelf.get(fn) ?? 0) + us);
  placeSelf.set(place, (placeSelf.get(place) ?? 0) + us);
}

const pct = (us) => `${((100 * us) / totalUs).toFixed(1).padStart(5)}%`;
const top = (map) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, rows)
    .map(([k, us]) => `${pct(us)}  ${k}`)
    .join('\n');
console.log(`sampled ${(totalUs / 1e6).toFixed(2)} s\n\nself time by package / file:\n${top(placeSelf)}`);
console.log(`\nself time by function:\n${top(fnSelf)}`);

// Total time: each sample's time counted once for every distinct function on its stack.
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const fnTotal = new Map();
let idleUs = 0;
for (const [id, us] of selfUs) {
  if (byId.get(id).callFrame.functionName === '(idle)') idleUs += us;
  const seen = new Set();
  for (let at = id; at !== undefined; at = parentOf.get(at)) {
    const { callFrame } = byId.get(at);
    if (callFrame.functionName === '(root)') continue;
    const fn = `${callFrame.functionName || '(anonymous)'}  ${placeOf(callFrame.url)}:${callFrame.lineNumber + 1}`;
    if (seen.has(fn)) continue;
    seen.add(fn);
    fnTotal.set(fn, (fnTotal.get(fn) ?? 0) + us);
  }
}
const busyUs = totalUs - idleUs;
const shown = new RegExp(totalFilter ?? '.');
const totals = [...fnTotal]
  .filter(([fn]) => fn !== '(idle)  (native):0' && shown.test(fn))
  .sort((a, b) => b[1] - a[1])
  .slice(0, rows)
  .map(([fn, us]) => `${((100 * us) / busyUs).toFixed(1).padStart(5)}%  ${fn}`)
  .join('\n');
console.log(
  `\ntotal time by function, of the busy ${(busyUs / 1e6).toFixed(2)} s${totalFilter ? ` (matching /${totalFilter}/)` : ''}:\n${totals}`,
);
