// Benchmark 3 — change detection: the per-request file-change check of a host that has read 20
// objects, in a space holding just those 20 files vs a space of 100,000 files. The cost must depend
// on what was read, not on the size of the space.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContentObserver, ContentStore } from '@repa/content';
import { measureSides } from '../lib/compare.mjs';
import { log, progress } from '../lib/progress.mjs';

const READ = 20;
const PER_FOLDER = 1_000;

function pathOf(index) {
  return `folder-${String(Math.floor(index / PER_FOLDER)).padStart(3, '0')}/note-${index}.md`;
}

/** Creates `count` small text files under `root`, logging progress for big spaces. */
function createSpace(root, count) {
  const started = performance.now();
  for (let index = 0; index < count; index++) {
    if (index % PER_FOLDER === 0) mkdirSync(join(root, pathOf(index), '..'), { recursive: true });
    writeFileSync(
      join(root, pathOf(index)),
      `# Note ${index}\n\nSome text about topic ${index}.\n`,
    );
    if (count >= 10_000 && (index + 1) % 20_000 === 0) {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      log(
        `change detection: created ${(index + 1).toLocaleString('en')} / ${count.toLocaleString('en')} files (${seconds} s)`,
      );
    }
  }
}

/** The 20 objects a host reads: spread over the space. */
function readTargets(count) {
  return Array.from({ length: READ }, (_, index) => pathOf(Math.floor((index * count) / READ)));
}

/**
 * Moves the mtimes of the read files `secondsAgo` into the past. Fresh files are "racy": the
 * observer only trusts a stat key once the mtime is 2 s old, and hashes them until then.
 */
function age(root, targets, secondsAgo) {
  const when = new Date(Date.now() - secondsAgo * 1000);
  for (const target of targets) utimesSync(join(root, target), when, when);
}

async function observe(root, targets) {
  const store = await ContentStore.open({ root });
  const observer = new ContentObserver(store);
  for (const target of targets) {
    observer.recordRead(await store.read(target), { partial: false });
  }
  return observer;
}

async function checkedClean(observer) {
  const report = await observer.checkChanges('notice');
  if (report.changes.length !== 0) throw new Error('change detection: unexpected changes');
}

/** Runs benchmark 3 and returns its table rows. */
export async function changeDetection({ scale = 1 } = {}) {
  const base = mkdtempSync(join(tmpdir(), 'repa-bench-changes-'));
  const small = join(base, 'small');
  const large = join(base, 'large');
  const racy = join(base, 'racy');
  const largeCount = 100_000;
  log(`change detection: creating a space of ${largeCount.toLocaleString('en')} files in ${large}`);
  createSpace(large, largeCount);
  createSpace(small, READ);
  createSpace(racy, READ);
  const smallTargets = readTargets(READ);
  const largeTargets = readTargets(largeCount);
  age(small, smallTargets, 60);
  age(large, largeTargets, 60);
  const smallObserver = await observe(small, smallTargets);
  const largeObserver = await observe(large, largeTargets);
  const rounds = 4;
  const iterations = Math.max(5, Math.round((600 * scale) / rounds));
  const [smallStats, largeStats] = await measureSides({
    iterations,
    rounds,
    warmup: 20,
    onRound: progress('change detection', rounds),
    sides: [
      { name: `checkChanges, ${READ} files`, fn: () => checkedClean(smallObserver) },
      { name: `checkChanges, ${largeCount} files`, fn: () => checkedClean(largeObserver) },
    ],
  });

  // Diagnostic: the same check while the read files are younger than the 2 s racy window (as in
  // a fast tool loop), against the settled check of the same small space.
  const racyTargets = readTargets(READ);
  const racyObserver = await observe(racy, racyTargets);
  const keepRacy = () => age(racy, racyTargets, 0);
  const [settledStats, racyStats] = await measureSides({
    iterations: Math.max(5, Math.round((100 * scale) / rounds)),
    rounds,
    warmup: 5,
    onRound: progress('change detection (racy)', rounds),
    sides: [
      { name: 'checkChanges, settled', fn: () => checkedClean(smallObserver) },
      { name: 'checkChanges, racy', beforeEach: keepRacy, fn: () => checkedClean(racyObserver) },
    ],
  });
  log('change detection: removing the temp spaces');
  rmSync(base, { recursive: true, force: true });
  return [
    {
      bench: 'change detection',
      case: `checkChanges('notice') after ${READ} reads: ${largeCount.toLocaleString('en')}-file space vs ${READ}-file space`,
      baselineLabel: `${READ} files`,
      baseline: smallStats,
      candidate: largeStats,
      target: { max: 1.1 },
    },
    {
      bench: 'change detection',
      case: `same check, the ${READ} read files modified < 2 s ago (racy) vs settled (diagnostic)`,
      baselineLabel: 'settled',
      baseline: settledStats,
      candidate: racyStats,
      target: null,
    },
  ];
}
