// Benchmark 7 — a newcomer's first `npm start`: a fresh `git clone` of this repository's HEAD,
// then `npm start` (install from pnpm's store, build every package, run the demo) in a shell
// without this checkout's node_modules/.bin, timed from outside as one wall-clock figure.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { statsOf } from '../lib/compare.mjs';
import { log } from '../lib/progress.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The target: install + build + demo of a fresh clone within 45 s on the 2-core machine. */
const TARGET = { max: 45 };

/** The environment of a fresh shell: no npm script variables, no workspace binaries on PATH. */
function newcomerEnv() {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')),
  );
  env.PATH = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((entry) => !entry.includes('node_modules'))
    .join(delimiter);
  return env;
}

/** Runs `npm start` in `dir`; resolves with its wall time in seconds (rejects when it fails). */
function npmStart(dir) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('npm', ['start'], { cwd: dir, env: newcomerEnv(), stdio: 'pipe' });
    let output = '';
    const keep = (chunk) => {
      output = (output + chunk.toString('utf8')).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve((performance.now() - started) / 1000);
      else reject(new Error(`npm start exited ${code}:\n${output}`));
    });
  });
}

/** Runs benchmark 7 and returns its table row. */
export async function coldStart({ scale = 1 } = {}) {
  const samples = [];
  const runs = Math.max(1, Math.round(2 * scale));
  for (let run = 0; run < runs; run++) {
    const dir = mkdtempSync(join(tmpdir(), 'repa-bench-clone-'));
    try {
      const clone = spawnSync('git', ['clone', '--quiet', ROOT, dir], { stdio: 'inherit' });
      if (clone.status !== 0) throw new Error('git clone failed');
      log(`cold start: npm start in a fresh clone (${run + 1}/${runs})`);
      samples.push(await npmStart(dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const stats = statsOf(samples);
  return [
    {
      kind: 'metric',
      bench: 'cold start',
      case: '`npm start` in a fresh clone (install + build + demo), wall time (median)',
      value: stats.median,
      unit: 's',
      target: TARGET,
      samples: samples.length,
      note: `runs: ${samples.map((seconds) => seconds.toFixed(1)).join(', ')} s`,
    },
  ];
}
