// Summarises a V8 .cpuprofile (node --cpu-prof): the top frames by self time, and self time per
// package, so a benchmark's gap can be traced to a file and function.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

function where(url) {
  if (!url) return '(native)';
  const text = decodeURIComponent(url.replace(/^file:\/\//, ''));
  const pnpm = text.match(/node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/);
  if (pnpm) return `${pnpm[1]}/${pnpm[2]}`;
  const repa = text.match(/\/(packages|apps)\/([^/]+)\/(.*)$/);
  if (repa) return `@repa/${repa[2]}/${repa[3]}`;
  if (text.startsWith('node:')) return text;
  return text.split('/').slice(-2).join('/');
}

function packageOf(location) {
  if (location.startsWith('node:')) return 'node (internal)';
  if (location.startsWith('(')) return location;
  const parts = location.split('/');
  return location.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Top frames by self time and self time per package of one profile file. */
export function summarizeProfile(path, { top = 15 } = {}) {
  const profile = JSON.parse(readFileSync(path, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  const { samples, timeDeltas } = profile;
  for (let index = 0; index < samples.length; index++) {
    const id = samples[index];
    self.set(id, (self.get(id) ?? 0) + (timeDeltas[index] ?? 0) / 1000);
  }
  const frames = new Map();
  const packages = new Map();
  let total = 0;
  for (const [id, ms] of self) {
    const node = byId.get(id);
    if (!node) continue;
    total += ms;
    const { functionName, url, lineNumber } = node.callFrame;
    const location = where(url);
    const key = `${functionName || '(anonymous)'} ${location}${url ? `:${lineNumber + 1}` : ''}`;
    frames.set(key, (frames.get(key) ?? 0) + ms);
    const pkg = packageOf(location);
    packages.set(pkg, (packages.get(pkg) ?? 0) + ms);
  }
  const sorted = (map) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, ms]) => ({ name, ms, share: ms / total }));
  return { totalMs: total, frames: sorted(frames), packages: sorted(packages) };
}

/** The summary as text lines. */
export function formatProfileSummary(summary) {
  const line = ({ name, ms, share }) =>
    `  ${ms.toFixed(0).padStart(7)} ms ${(share * 100).toFixed(1).padStart(5)}%  ${name}`;
  return [
    `Total sampled: ${summary.totalMs.toFixed(0)} ms`,
    'Self time by package:',
    ...summary.packages.map(line),
    'Top frames by self time:',
    ...summary.frames.map(line),
  ].join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const file of process.argv.slice(2)) {
    process.stdout.write(`${file}\n${formatProfileSummary(summarizeProfile(file))}\n`);
  }
}
