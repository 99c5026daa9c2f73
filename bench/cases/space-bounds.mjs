// Benchmark 9 — a space someone else made (spec R74): each hostile case as one content operation
// (or the reader's files.read, or a learning context's sources), its wall time and the longest the
// event loop waited meanwhile (what another session's run.submit would wait). The tests only check
// that these finish, or that another request is answered meanwhile; the times live here.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ContentObserver, ContentStore } from '@repa/content';
import { createContentTools } from '@repa/content/tools';
import { setLearningContext } from '@repa/host';
import { createRepaClient } from '@repa/protocol/node';
import { startDaemon, stopDaemon } from '../lib/daemon-process.mjs';
import { log } from '../lib/progress.mjs';
import { metricRows } from '../lib/report.mjs';

/** Targets: each case within 5 s, the event loop never waiting longer than 250 ms. */
const TARGETS = { wallSeconds: { max: 5 }, longestWaitMs: { max: 250 } };

/** Runs `operation` once, returning its wall time (s) and the event loop's longest wait (ms). */
async function measured(operation) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const started = performance.now();
  await operation();
  const seconds = (performance.now() - started) / 1000;
  delay.disable();
  return { seconds, longestWaitMs: delay.max / 1e6 };
}

async function toolsOf(root) {
  const store = await ContentStore.open({ root });
  const observer = new ContentObserver(store);
  const tools = Object.fromEntries(
    createContentTools({ store, observer }).map((tool) => [tool.name, tool]),
  );
  const call = (name, params) =>
    tools[name].execute(`bench-${name}`, params, undefined, undefined, {});
  return { store, observer, call };
}

const CASES = {
  'find with the glob *a*a*a*a*a*a*a*a*b over 200 long names': async (root) => {
    for (let index = 0; index < 200; index++)
      writeFileSync(join(root, `${'a'.repeat(200)}${index}`), '');
    const { call } = await toolsOf(root);
    return () => call('find', { pattern: '*a*a*a*a*a*a*a*a*b' });
  },
  'grep under a 1 MiB .gitignore of wildcard rules (not applied, named)': async (root) => {
    const rules = Array.from({ length: 60_000 }, (_, index) => `*${index}a*b*c*${index}`).join(
      '\n',
    );
    writeFileSync(join(root, '.gitignore'), rules.slice(0, 1024 * 1024));
    for (let index = 0; index < 2000; index++) writeFileSync(join(root, `note-${index}.md`), 'x');
    const { call } = await toolsOf(root);
    return () => call('grep', { pattern: 'needle' });
  },
  'grep under a .gitignore of 1000 wildcard rules, 2000 files': async (root) => {
    const rules = Array.from({ length: 1000 }, (_, index) => `*${index}a*b*c*${index}`).join('\n');
    writeFileSync(join(root, '.gitignore'), rules);
    for (let index = 0; index < 2000; index++) writeFileSync(join(root, `note-${index}.md`), 'x');
    const { call } = await toolsOf(root);
    return () => call('grep', { pattern: 'needle' });
  },
  'grep of an 8 MiB single-line file': async (root) => {
    writeFileSync(join(root, 'line.txt'), 'ab'.repeat(4 * 1024 * 1024));
    const { call } = await toolsOf(root);
    return () => call('grep', { pattern: '(?i)(\\w+\\s*){5}needle' });
  },
  'find in a space with folders nested past PATH_MAX': async (root) => {
    const name = 'd'.repeat(200);
    execFileSync('bash', [
      '-c',
      `cd "$1" && for i in $(seq 30); do mkdir ${name} && cd ${name}; done`,
      'bash',
      root,
    ]);
    const { call } = await toolsOf(root);
    return () => call('find', { pattern: '*.md' });
  },
  'a learning context set with a sparse 1 TiB source (refused from its size)': async (root) => {
    writeFileSync(join(root, 'huge.md'), '');
    truncateSync(join(root, 'huge.md'), 2 ** 40);
    return () =>
      setLearningContext(root, { body: 'x', sources: ['huge.md'], expectedRevision: null }).then(
        () => {
          throw new Error('the 1 TiB source was read');
        },
        (error) => {
          if (error.code !== 'file_too_large') throw error;
        },
      );
  },
  'checkChanges after a read file became a sparse 1 TiB file': async (root) => {
    writeFileSync(join(root, 'a.md'), 'a\n');
    const { store, observer } = await toolsOf(root);
    observer.recordRead(await store.read('a.md'), { partial: false });
    truncateSync(join(root, 'a.md'), 2 ** 40);
    return () => observer.checkChanges('diff');
  },
};

/**
 * Through the real daemon: the longest another client waits for `files.list` (asked again as soon
 * as it is answered) while a first client's `files.read` of a 200 MiB one-line note is served, and
 * the same with no such read (the machine's noise).
 */
async function readerRows(root, dirs) {
  writeFileSync(join(root, 'huge.md'), Buffer.alloc(200 * 1024 * 1024, 'word '));
  writeFileSync(join(root, 'a.md'), 'a\n');
  // Repa's and Pi's folders outside the space: a space never holds them.
  const daemon = await startDaemon(join(dirs, 'app'), join(dirs, 'agent'));
  const clients = [0, 1].map(() => createRepaClient({ socketPath: daemon.socketPath }));
  const [reader, other] = clients;
  try {
    for (const client of clients) await client.connect();
    // Both methods loaded (the first call imports the host) before anything is measured.
    await other.request('files.read', { space: root, path: 'a.md' });
    await other.request('files.list', { space: root });
    const longestWait = async (during) => {
      let done = false;
      const served = during().finally(() => {
        done = true;
      });
      let longest = 0;
      let asked = 0;
      while (!done || asked === 0) {
        const started = performance.now();
        await other.request('files.list', { space: root });
        longest = Math.max(longest, performance.now() - started);
        asked += 1;
      }
      await served;
      return { longest, asked };
    };
    log("space bounds: another client's wait while the daemon reads a 200 MiB one-line note");
    const quiet = await longestWait(() => new Promise((resolve) => setTimeout(resolve, 1000)));
    const huge = await longestWait(() =>
      reader.request('files.read', { space: root, path: 'huge.md' }),
    );
    const row = (what, { longest, asked }, target) => ({
      kind: 'metric',
      bench: 'space bounds',
      case: what,
      value: longest,
      unit: 'ms',
      target,
      samples: asked,
    });
    return [
      row(
        "another client's longest files.list while the daemon serves files.read of a 200 MiB one-line note",
        huge,
        TARGETS.longestWaitMs,
      ),
      row(
        "another client's longest files.list with no such read (diagnostic: the machine's noise)",
        quiet,
      ),
    ];
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
    await stopDaemon(daemon);
  }
}

/** Runs benchmark 9 and returns its table rows. */
export async function spaceBounds() {
  const rows = [];
  const root = mkdtempSync(join(tmpdir(), 'repa-bench-bounds-'));
  const dirs = mkdtempSync(join(tmpdir(), 'repa-bench-bounds-dirs-'));
  try {
    rows.push(...(await readerRows(root, dirs)));
  } finally {
    execFileSync('rm', ['-rf', root, dirs]);
  }
  const metricRow = metricRows('space bounds');
  for (const [name, prepare] of Object.entries(CASES)) {
    const root = mkdtempSync(join(tmpdir(), 'repa-bench-bounds-'));
    mkdirSync(root, { recursive: true });
    try {
      log(`space bounds: ${name}`);
      const operation = await prepare(root);
      const { seconds, longestWaitMs } = await measured(operation);
      const metric = (what, value, unit, target) =>
        metricRow(`${name}: ${what}`, value, unit, target, { samples: 1 });
      rows.push(
        metric('wall time', seconds, 's', TARGETS.wallSeconds),
        metric('longest event-loop wait', longestWaitMs, 'ms', TARGETS.longestWaitMs),
      );
    } finally {
      execFileSync('rm', ['-rf', root]);
    }
  }
  return rows;
}
