#!/usr/bin/env node
// npm run bench: Repa's cost on top of Pi, measured as ratios in one process run.
// Usage: node bench/run.mjs [turn|projection|changes|saves|daemon|fairness|coldstart|search|bounds|documents|citations|prefix|page|study|cli …] [--scale=N] [--update-readme]
//   cases     run only these (default: all, in this order)
//   --scale   multiply every sample count (e.g. 0.3 for a quick look; default 1)
//   --update-readme  replace the table in bench/README.md with this run's
// Prints progress on stderr and the table on stdout; writes bench/results/latest.json.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { changeDetection } from './cases/change-detection.mjs';
import { citations } from './cases/citations.mjs';
import { cliStart } from './cases/cli-start.mjs';
import { coldStart } from './cases/cold-start.mjs';
import { daemon } from './cases/daemon.mjs';
import { documents } from './cases/documents.mjs';
import { fairness } from './cases/fairness.mjs';
import { page } from './cases/page.mjs';
import { projection } from './cases/projection.mjs';
import { promptPrefix } from './cases/prompt-prefix.mjs';
import { saves } from './cases/saves.mjs';
import { search } from './cases/search.mjs';
import { spaceBounds } from './cases/space-bounds.mjs';
import { study } from './cases/study.mjs';
import { turnOverhead } from './cases/turn-overhead/index.mjs';
import { markdownTables, ratioOf, verdictOf } from './lib/report.mjs';

const CASES = {
  turn: turnOverhead,
  projection,
  changes: changeDetection,
  saves,
  daemon,
  fairness,
  coldstart: coldStart,
  search,
  bounds: spaceBounds,
  documents,
  citations,
  prefix: promptPrefix,
  page,
  study,
  cli: cliStart,
};

const args = process.argv.slice(2);
const scale = Number(args.find((arg) => arg.startsWith('--scale='))?.slice(8) ?? 1);
const updateReadme = args.includes('--update-readme');
const chosen = args.filter((arg) => !arg.startsWith('--'));
for (const name of chosen) {
  if (!(name in CASES)) {
    process.stderr.write(
      `Unknown benchmark ${name}; choose from ${Object.keys(CASES).join(', ')}\n`,
    );
    process.exit(2);
  }
}
if (!(scale > 0)) {
  process.stderr.write('--scale must be a positive number\n');
  process.exit(2);
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const machine = {
  cores: availableParallelism(),
  cpu: cpus()[0]?.model ?? 'unknown',
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  startedAt: new Date().toISOString(),
  loadAtStart: load(),
  scale,
};
process.stderr.write(
  `Repa benchmarks on ${machine.cores} cores (${machine.cpu}), Node ${machine.node}, load ${machine.loadAtStart}, scale ${scale}\n`,
);
process.env.PI_OFFLINE = '1';

const started = performance.now();
const rows = [];
for (const [name, run] of Object.entries(CASES)) {
  if (chosen.length > 0 && !chosen.includes(name)) continue;
  const caseStarted = performance.now();
  process.stderr.write(`▶ ${name}\n`);
  rows.push(...(await run({ scale })));
  const seconds = ((performance.now() - caseStarted) / 1000).toFixed(1);
  process.stderr.write(`✔ ${name} (${seconds} s)\n`);
}
machine.loadAtEnd = load();
if (process.env.REPA_BENCH_SIDE !== undefined) {
  // bench/profile.mjs measured one side only: there is no ratio to report.
  process.stderr.write('Profiling run: one side only, no table written.\n');
  process.exit(0);
}
machine.durationSeconds = Math.round((performance.now() - started) / 1000);

const table = markdownTables(rows);
const heading = `Measured ${machine.startedAt.slice(0, 10)} on ${machine.cores} cores (${machine.cpu}, ${machine.memoryGiB} GiB), Node ${machine.node}; load average (1/5/15 min) ${machine.loadAtStart} at start, ${machine.loadAtEnd} at end; ${machine.durationSeconds} s in total, scale ${scale}.`;
process.stdout.write(`\n${heading}\n\n${table}\n`);

const resultsDir = fileURLToPath(new URL('./results/', import.meta.url));
mkdirSync(resultsDir, { recursive: true });
const summary = rows.map((row) => ({
  ...row,
  ...(row.kind ? {} : { ratioValue: ratioOf(row) }),
  verdict: verdictOf(row),
}));
writeFileSync(
  new URL('./results/latest.json', import.meta.url),
  `${JSON.stringify({ machine, rows: summary }, null, 2)}\n`,
);
process.stderr.write(`Wrote bench/results/latest.json\n`);

if (updateReadme) {
  const readme = new URL('./README.md', import.meta.url);
  const text = readFileSync(readme, 'utf8');
  const start = '<!-- bench:table:start -->';
  const end = '<!-- bench:table:end -->';
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) {
    process.stderr.write('bench/README.md has no table markers; not updated\n');
  } else {
    const next = `${text.slice(0, from + start.length)}\n${heading}\n\n${table}\n${text.slice(to)}`;
    writeFileSync(readme, next);
    process.stderr.write('Updated the table in bench/README.md\n');
  }
}
const missed = summary.filter((row) => row.verdict === 'NOT met');
if (missed.length > 0) {
  process.stderr.write(
    `${missed.length} target(s) not met: ${missed.map((row) => `${row.bench} (${row.case})`).join('; ')}\n`,
  );
}
