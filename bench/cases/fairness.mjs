import { once } from 'node:events';
import {
  closeSync,
  createWriteStream,
  fsyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quantile } from '../lib/compare.mjs';
import { memoryOf } from '../lib/daemon-process.mjs';
import { log } from '../lib/progress.mjs';
import { metricRows } from '../lib/report.mjs';
import { twoClients } from '../lib/tracking-client.mjs';

const HUGE_MB = 200;
/** The targets: another client's run.submit answer under 50 ms p99; RSS back within 20 MiB. */
const TARGETS = { submitP99: { max: 50 }, rssGrowth: { max: 20 } };

/** Writes notes/huge.md (HUGE_MB MB of short prose lines) and notes/small.md. */
async function createSpace(root) {
  mkdirSync(join(root, 'notes'), { recursive: true });
  writeFileSync(
    join(root, 'notes', 'small.md'),
    '# Small\n\nPhotosynthesis turns light into sugar.\n',
  );
  const out = createWriteStream(join(root, 'notes', 'huge.md'));
  const block = Array.from(
    { length: 1000 },
    (_, line) => `Line ${line}: chlorophyll absorbs red and blue light in every leaf cell.`,
  ).join('\n');
  const chunk = Buffer.from(`${block}\n`);
  for (let written = 0; written < HUGE_MB * 1024 * 1024; written += chunk.length) {
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  // On disk before measuring: its write-back would otherwise slow the daemon's own fsyncs.
  const fd = openSync(join(root, 'notes', 'huge.md'), 'r');
  fsyncSync(fd);
  closeSync(fd);
}

const settle = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs benchmark 6 and returns its table rows. */
export async function fairness({ scale = 1 } = {}) {
  const base = mkdtempSync(join(tmpdir(), 'repa-bench-fairness-'));
  const space = join(base, 'space');
  log(`fairness: writing a ${HUGE_MB} MB note`);
  await createSpace(space);
  const pair = await twoClients(base, space);
  const { daemon, a, b, close } = pair;
  try {
    const small = 'What does notes/small.md say about photosynthesis?';
    const huge = 'What does notes/huge.md say about chlorophyll?';
    // Warm both sessions' code paths on the small note.
    for (let index = 0; index < 3; index++) {
      await a.run(space, a.sessionId, small);
      await b.run(space, b.sessionId, small);
    }

    // The same submits with no huge read: what the machine's own noise gives.
    const alone = await pair.alone(small, Math.max(20, Math.round(60 * scale)));
    const rounds = Math.max(1, Math.round(3 * scale));
    const submits = [];
    const hugeRuns = [];
    const otherRuns = [];
    for (let round = 0; round < rounds; round++) {
      log(`fairness: round ${round + 1}/${rounds}: A reads the huge note, B submits runs`);
      const { heavy, beside } = await pair.beside(huge, small);
      submits.push(...beside.map((run) => run.submitMs));
      otherRuns.push(...beside.map((run) => run.totalMs));
      hugeRuns.push(heavy.totalMs);
    }
    // The memory the huge reads keep, apart from B's runs (the session B filled during the rounds
    // is what B said, whatever their number): the resident size, the same huge runs with no other
    // client, a few ordinary runs and a pause, then the resident size again.
    for (let index = 0; index < 3; index++) await b.run(space, b.sessionId, small);
    await settle(1000);
    const before = memoryOf(daemon.child.pid);
    for (let round = 0; round < rounds; round++) await a.run(space, a.sessionId, huge);
    for (let index = 0; index < 3; index++) await a.run(space, a.sessionId, small);
    await settle(2000);
    const after = memoryOf(daemon.child.pid);
    submits.sort((x, y) => x - y);
    hugeRuns.sort((x, y) => x - y);
    otherRuns.sort((x, y) => x - y);
    const metric = metricRows('fairness');
    return [
      metric(
        `run.submit p99 of client B while client A's run reads a ${HUGE_MB} MB note`,
        quantile(submits, 0.99),
        'ms',
        TARGETS.submitP99,
        {
          samples: submits.length,
          note: `p50 ${quantile(submits, 0.5).toFixed(1)} ms, max ${submits.at(-1)?.toFixed(0)} ms; B's whole runs p99 ${quantile(otherRuns, 0.99).toFixed(0)} ms; A's run ${quantile(hugeRuns, 0.5).toFixed(0)} ms (median of ${rounds})`,
        },
      ),
      metric(
        'run.submit p99 of client B with no huge read (diagnostic)',
        quantile(alone, 0.99),
        'ms',
        null,
        { samples: alone.length, note: `p50 ${quantile(alone, 0.5).toFixed(1)} ms` },
      ),
      metric(
        `daemon RSS growth after ${rounds} run(s) on a ${HUGE_MB} MB note`,
        (after.rssKiB - before.rssKiB) / 1024,
        'MiB',
        TARGETS.rssGrowth,
        {
          samples: rounds,
          note: `the ${rounds} huge runs again with no other client: before ${(before.rssKiB / 1024).toFixed(0)} MiB, after ${(after.rssKiB / 1024).toFixed(0)} MiB, peak ${(after.peakKiB / 1024).toFixed(0)} MiB (B's ${submits.length} runs during the rounds are not in it)`,
        },
      ),
    ];
  } finally {
    await close();
    rmSync(base, { recursive: true, force: true });
  }
}
