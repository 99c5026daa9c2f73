// Benchmark 6 — search: the `grep` tool (in process, through the space's scope rules) over a
// space of 100,000 files vs ripgrep on the same tree (as Pi's own grep runs it), and the daemon's
// responsiveness to another session's run.submit while a grep over that space runs.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContentObserver, ContentStore, createContentTools } from '@repa/content';
import { measureSides, quantile } from '../lib/compare.mjs';
import { startDaemon, stopDaemon } from '../lib/daemon-process.mjs';
import { log, progress } from '../lib/progress.mjs';
import { trackingClient } from '../lib/tracking-client.mjs';

const FILES = 100_000;
const PER_FOLDER = 1_000;
/** Files holding the needle, spread over the space. */
const NEEDLES = 10;
const PATTERN = 'tidal\\s+bore';
/**
 * Targets: run.submit of another session while a grep over 100,000 files runs stays within the
 * daemon benchmark's own p99 target (850 ms, see cases/daemon.mjs).
 */
const TARGETS = { submitP99DuringGrep: { max: 850 } };
/** The pause between the other session's requests while the grep runs. */
const PACE_MS = 200;

function pathOf(index) {
  return `folder-${String(Math.floor(index / PER_FOLDER)).padStart(3, '0')}/note-${index}.md`;
}

function createSpace(root) {
  const started = performance.now();
  const step = FILES / NEEDLES;
  for (let index = 0; index < FILES; index++) {
    if (index % PER_FOLDER === 0) mkdirSync(join(root, pathOf(index), '..'), { recursive: true });
    const needle = index % step === step / 2 ? 'The tidal bore rushes up the river.\n' : '';
    writeFileSync(
      join(root, pathOf(index)),
      `# Note ${index}\n\nSome text about topic ${index}.\n${needle}`,
    );
    if ((index + 1) % 20_000 === 0) {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      log(
        `search: created ${(index + 1).toLocaleString('en')} / ${FILES.toLocaleString('en')} files (${seconds} s)`,
      );
    }
  }
}

/** The ripgrep binary, installed from Debian when absent and allowed (root); else `undefined`. */
function ripgrep() {
  const found = () => spawnSync('rg', ['--version'], { stdio: 'ignore' }).status === 0;
  if (found()) return 'rg';
  if (process.getuid?.() === 0) {
    log('search: ripgrep is absent; installing it from Debian (apt-get install -y ripgrep)');
    spawnSync('apt-get', ['install', '-y', 'ripgrep'], { stdio: 'ignore' });
    if (found()) return 'rg';
  }
  return undefined;
}

/** Runs ripgrep as Pi's grep tool does; resolves with the number of matches. */
function runRipgrep(rg, root) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      rg,
      ['--json', '--line-number', '--color=never', '--hidden', '--', PATTERN, root],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk.toString('utf8');
    });
    child.once('error', reject);
    child.once('exit', () =>
      resolve(out.split('\n').filter((line) => line.includes('"type":"match"')).length),
    );
  });
}

async function grepVsRipgrep(root, { scale }) {
  const rg = ripgrep();
  const store = await ContentStore.open({ root });
  const grep = createContentTools({ store, observer: new ContentObserver(store) }).find(
    (tool) => tool.name === 'grep',
  );
  const viaTool = async () => {
    const result = await grep.execute('bench', { pattern: PATTERN }, undefined, undefined, {});
    if (result.details.hits.length !== NEEDLES || result.details.stoppedEarly) {
      throw new Error(
        `grep found ${result.details.hits.length} hits (${result.details.stoppedEarly ?? 'complete'})`,
      );
    }
  };
  if (rg === undefined) {
    log(
      'search: ripgrep is not installed and could not be installed; the grep vs ripgrep row is skipped',
    );
    return undefined;
  }
  const rounds = 2;
  const [baseline, candidate] = await measureSides({
    iterations: Math.max(2, Math.round((6 * scale) / rounds)),
    rounds,
    warmup: 1,
    onRound: progress('grep vs ripgrep', rounds),
    sides: [
      {
        name: 'ripgrep',
        fn: async () => {
          const matches = await runRipgrep(rg, root);
          if (matches !== NEEDLES) throw new Error(`ripgrep found ${matches} matches`);
        },
      },
      { name: 'grep tool', fn: viaTool },
    ],
  });
  return { baseline, candidate };
}

/**
 * run.submit latency of a session in a small space, (a) while another session's run greps the
 * 100,000-file space (the offline model searches when a request names no file), (b) idle.
 */
async function responsiveness(base, root, { scale }) {
  const small = join(base, 'small-space');
  mkdirSync(small, { recursive: true });
  writeFileSync(join(small, 'a.md'), '# A\n\nThe tide turns every six hours.\n');
  const daemon = await startDaemon(join(base, 'app'), join(base, 'agent'));
  try {
    const big = trackingClient(daemon.socketPath);
    const other = trackingClient(daemon.socketPath);
    const { session: bigSession } = await big.client.request('session.create', { space: root });
    const { session: smallSession } = await other.client.request('session.create', {
      space: small,
    });
    const ask = async () => {
      const { submitMs, finished } = await other.submit(
        small,
        smallSession.sessionId,
        'What does a.md say about the tide?',
      );
      if ((await finished) !== 'succeeded') throw new Error('the small run failed');
      return submitMs;
    };
    await ask();
    const idle = [];
    const count = Math.max(10, Math.round(40 * scale));
    for (let index = 0; index < count; index++) idle.push(await ask());
    const during = [];
    const grepRuns = Math.max(1, Math.round(3 * scale));
    const grepMs = [];
    for (let round = 0; round < grepRuns; round++) {
      const started = performance.now();
      const { finished } = await big.submit(
        root,
        bigSession.sessionId,
        'what do my notes say about the tidal bore?',
      );
      let done = false;
      const ended = finished.then((status) => {
        done = true;
        grepMs.push(performance.now() - started);
        if (status !== 'succeeded') throw new Error(`the grep run ended ${status}`);
      });
      // Another user at a steady pace (one request every 200 ms), not a flood.
      while (!done) {
        during.push(await ask());
        await new Promise((resolve) => setTimeout(resolve, PACE_MS));
      }
      await ended;
      log(
        `search: grep run ${round + 1}/${grepRuns} took ${grepMs.at(-1).toFixed(0)} ms; ${during.length} submits so far`,
      );
    }
    await big.client.close();
    await other.client.close();
    const sorted = (values) => [...values].sort((a, b) => a - b);
    return { idle: sorted(idle), during: sorted(during), grepMs: sorted(grepMs) };
  } finally {
    await stopDaemon(daemon);
  }
}

/** Runs benchmark 6 and returns its table rows. */
export async function search({ scale = 1 } = {}) {
  const base = mkdtempSync(join(tmpdir(), 'repa-bench-search-'));
  try {
    const root = join(base, 'space');
    mkdirSync(root);
    log(`search: creating a space of ${FILES.toLocaleString('en')} files`);
    createSpace(root);
    const rows = [];
    const paired = await grepVsRipgrep(root, { scale });
    if (paired) {
      rows.push({
        bench: 'search',
        case: `grep "${PATTERN}" over ${FILES.toLocaleString('en')} files (${NEEDLES} hits): grep tool vs ripgrep`,
        baselineLabel: 'ripgrep',
        ...paired,
      });
    } else {
      rows.push({
        kind: 'metric',
        bench: 'search',
        case: 'grep tool vs ripgrep',
        value: Number.NaN,
        unit: 'ms',
        target: null,
        note: 'skipped: ripgrep is not installed and could not be installed',
      });
    }
    log('search: daemon responsiveness while a grep runs');
    const measured = await responsiveness(base, root, { scale });
    const metric = (name, value, unit, target = null, extra = {}) => ({
      kind: 'metric',
      bench: 'search',
      case: name,
      value,
      unit,
      target,
      ...extra,
    });
    rows.push(
      metric(
        `another session's run.submit p50 while a grep runs over ${FILES.toLocaleString('en')} files`,
        quantile(measured.during, 0.5),
        'ms',
        null,
        {
          samples: measured.during.length,
          note: `idle daemon: ${quantile(measured.idle, 0.5).toFixed(1)} ms`,
        },
      ),
      metric(
        `another session's run.submit p99 while a grep runs over ${FILES.toLocaleString('en')} files`,
        quantile(measured.during, 0.99),
        'ms',
        TARGETS.submitP99DuringGrep,
        {
          samples: measured.during.length,
          note: `idle daemon: ${quantile(measured.idle, 0.99).toFixed(1)} ms`,
        },
      ),
      metric(
        'the grep run itself (repa-offline: grep over the space, read, answer), median',
        quantile(measured.grepMs, 0.5),
        'ms',
        null,
        { samples: measured.grepMs.length },
      ),
    );
    return rows;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
