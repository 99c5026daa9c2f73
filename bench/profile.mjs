#!/usr/bin/env node
// Profiles one side of one benchmark with `node --cpu-prof` and summarises the top frames.
// Usage: node bench/profile.mjs <turn|projection|changes|saves|daemon> [repa|baseline] [--scale=N]
// Profiles go to bench/results/profiles/ (ignored by git); open them in Chrome DevTools for more.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatProfileSummary, summarizeProfile } from './lib/summarize-profile.mjs';

const [name, side = 'repa', ...rest] = process.argv.slice(2);
if (!name || !['repa', 'baseline'].includes(side)) {
  process.stderr.write('Usage: node bench/profile.mjs <benchmark> [repa|baseline] [--scale=N]\n');
  process.exit(2);
}
const dir = fileURLToPath(new URL(`./results/profiles/${name}-${side}/`, import.meta.url));
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const run = fileURLToPath(new URL('./run.mjs', import.meta.url));
const result = spawnSync(
  process.execPath,
  ['--cpu-prof', `--cpu-prof-dir=${dir}`, run, name, ...rest],
  {
    stdio: ['ignore', 'ignore', 'inherit'],
    // measureSides then measures only this side (the first side is the baseline, the last Repa).
    env: {
      ...process.env,
      REPA_BENCH_SIDE: side,
      REPA_BENCH_PROFILE_DIR: dir,
    },
  },
);
if (result.status !== 0) process.exit(result.status ?? 1);
// The bench process and, for the daemon benchmark, every daemon it started: the busiest first.
const summaries = readdirSync(dir)
  .filter((entry) => entry.endsWith('.cpuprofile'))
  .map((file) => ({ path: join(dir, file), summary: summarizeProfile(join(dir, file)) }))
  .sort((a, b) => b.summary.totalMs - a.summary.totalMs);
for (const { path, summary } of summaries) {
  process.stdout.write(`${path}\n${formatProfileSummary(summary)}\n`);
}
