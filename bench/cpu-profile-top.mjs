// The top of a .cpuprofile (bench/deposit-cpu.mjs's BENCH_CPU_PROF): self time per function and
// self time per package / source file, as shares of the sampled time, so a profile can be read
// without DevTools.   node bench/cpu-profile-top.mjs <file.cpuprofile> [rows, default 40]
import { readFileSync } from 'node:fs';

const [file, rowsArg] = process.argv.slice(2);
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
