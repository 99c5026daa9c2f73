// Benchmark 1 — turn overhead: the same scripted 5-turn conversation (each turn: read, edit, answer)
// through Repa's PiConversationHost and through a bare Pi AgentSession with Pi's own tools.
import { createHook } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import {
  constants,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { access, mkdir, open, readFile, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import {
  fauxAssistantMessage,
  fauxProvider,
  fauxToolCall,
  InMemoryCredentialStore,
} from '@earendil-works/pi-ai';
import {
  createAgentSessionFromServices,
  createAgentSessionServices,
  createEditToolDefinition,
  createWriteToolDefinition,
  ModelRuntime,
  SessionManager,
  SettingsManager,
} from '@earendil-works/pi-coding-agent';
import { ContentObserver, ContentStore } from '@repa/content';
import { PiConversationHost } from '@repa/host';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';
import { measureSides } from '../lib/compare.mjs';
import { log, progress } from '../lib/progress.mjs';

const TURNS = 5;
const BREAKDOWN_RUNS = 5;
const BREAKDOWN_DELAYED_RUNS = 3;
const REPLY_DELAY_MS = 50;
const FILES = Array.from({ length: TURNS }, (_, index) => `notes/topic-${index + 1}.md`);

/** The effective prompt settings of a default run. */
const DEFAULT_SETTINGS = DEFAULT_PROMPT_SETTINGS;

function fileText(index) {
  const lines = [`# Topic ${index + 1}`, ''];
  for (let line = 0; line < 40; line++) {
    lines.push(`Line ${line} of topic ${index + 1}: photosynthesis turns light into sugar.`);
  }
  lines.push('', 'Status: draft', '');
  return lines.join('\n');
}

/** The faux replies of one conversation: per turn a read, an edit, then a short answer. */
function script(delayMs) {
  const steps = [];
  for (const [index, path] of FILES.entries()) {
    steps.push(
      fauxAssistantMessage([fauxToolCall('read', { path })], { stopReason: 'toolUse' }),
      fauxAssistantMessage(
        [
          fauxToolCall('edit', {
            path,
            edits: [{ oldText: 'Status: draft', newText: `Status: reviewed in turn ${index + 1}` }],
          }),
        ],
        { stopReason: 'toolUse' },
      ),
      fauxAssistantMessage(`Marked ${path} as reviewed.`),
    );
  }
  if (delayMs === 0) return steps;
  // A function step holds the reply back, as a real model's latency would (both sides alike).
  return steps.map((message) => () => delay(delayMs).then(() => message));
}

function resetFiles(space) {
  for (const [index, path] of FILES.entries()) {
    mkdirSync(join(space, 'notes'), { recursive: true });
    writeFileSync(join(space, path), fileText(index));
  }
}

/** Pi's own tools for what Repa's content tools do (Repa's `apply_patch` has no Pi counterpart). */
const PI_EQUIVALENT_TOOLS = ['read', 'edit', 'write', 'ls', 'find', 'grep'];

/**
 * An extension that changes nothing: the three handlers Repa's own extension has on the
 * request path (`before_agent_start`, `context`, `context_with_system`), each returning nothing.
 * It measures what Pi's extension path costs by itself.
 */
const NOOP_EXTENSION = {
  name: 'bench-noop',
  factory: (pi) => {
    pi.on('before_agent_start', () => undefined);
    pi.on('context', async () => {
      noopContextCalls += 1;
      return undefined;
    });
    pi.on('context_with_system', () => undefined);
  },
};
let noopContextCalls = 0;

/** Writes `content` crash-safely: temp file, write, fsync, rename over `path`, fsync the folder. */
async function writeDurably(path, content) {
  const temp = join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`);
  const handle = await open(temp, 'wx', 0o666);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, path);
  const folder = await open(dirname(path), 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

/**
 * Pi's edit tool writing crash-safely (see writeDurably: the floor for any product that promises a
 * save survives a crash).
 */
function durableEditTool(cwd) {
  return createEditToolDefinition(cwd, {
    operations: {
      readFile: (path) => readFile(path),
      access: (path) => access(path, constants.R_OK | constants.W_OK),
      writeFile: writeDurably,
    },
  });
}

/** Pi's write tool writing crash-safely, likewise. */
function durableWriteTool(cwd) {
  return createWriteToolDefinition(cwd, {
    operations: {
      writeFile: writeDurably,
      mkdir: (dir) => mkdir(dir, { recursive: true }).then(() => {}),
    },
  });
}

function piSettings() {
  return SettingsManager.inMemory({
    compaction: { enabled: false },
    retry: { enabled: false },
  });
}

/** Runs benchmark 1 and returns its table rows. */
export async function turnOverhead({ scale = 1, settings = DEFAULT_SETTINGS } = {}) {
  const rounds = 4;
  const iterations = Math.max(2, Math.round((60 * scale) / rounds));
  process.env.PI_OFFLINE = '1';
  const base = mkdtempSync(join(tmpdir(), 'repa-bench-turn-'));
  const agentDir = join(base, 'agent');
  const appDirectory = join(base, 'app');
  mkdirSync(appDirectory, { recursive: true });
  const faux = fauxProvider({
    models: [{ id: 'faux-1', contextWindow: 128_000, maxTokens: 16_384 }],
  });
  const modelRuntime = await ModelRuntime.create({
    credentials: new InMemoryCredentialStore(),
    modelsPath: null,
    refreshOnCreate: false,
  });
  modelRuntime.registerNativeProvider(faux.provider);
  const model = modelRuntime.getModel('faux', 'faux-1');
  if (!model) throw new Error('faux model missing');

  let replyDelayMs = 0;
  let counter = 0;
  const freshSpace = () => {
    counter += 1;
    const space = join(base, `space-${counter}`);
    mkdirSync(space, { recursive: true });
    resetFiles(space);
    return space;
  };

  /**
   * Bare Pi: the same services path the host uses, Pi's own read and edit tools (or `tools`), no
   * extension; `durable`: its edit (and write) tools write crash-safely (see writeDurably).
   */
  let bare;
  // The no-op extension's `context` calls before the current conversation (each request calls it).
  let noopCallsBefore = 0;
  const openBare = async (durable = false, tools = ['read', 'edit'], extension = false) => {
    const space = freshSpace();
    const durableEdit = durable ? durableEditTool(space) : undefined;
    const customTools = durableEdit
      ? [durableEdit, ...(tools.includes('write') ? [durableWriteTool(space)] : [])]
      : [];
    const services = await createAgentSessionServices({
      cwd: space,
      agentDir,
      settingsManager: piSettings(),
      modelRuntime,
      resourceLoaderOptions: {
        noExtensions: true,
        noPromptTemplates: true,
        noThemes: true,
        ...(extension ? { extensionFactories: [NOOP_EXTENSION] } : {}),
      },
    });
    noopCallsBefore = noopContextCalls;
    const { session } = await createAgentSessionFromServices({
      services,
      sessionManager: SessionManager.create(space, join(space, '.pi-sessions')),
      model,
      thinkingLevel: 'off',
      tools,
      ...(durableEdit ? { customTools } : {}),
    });
    for (const tool of customTools) {
      if (session.getToolDefinition(tool.name) !== tool) {
        throw new Error(`the durable ${tool.name} tool did not replace Pi’s own`);
      }
    }
    if (session.getActiveToolNames().sort().join() !== [...tools].sort().join()) {
      throw new Error(`bare Pi offers ${session.getActiveToolNames().join()}, not ${tools.join()}`);
    }
    await session.bindExtensions({ onError: () => {} });
    faux.setResponses(script(replyDelayMs));
    bare = session;
  };

  let host;
  let hostSpace;
  // The space of the "used before" side, made at its first conversation (a warm-up one).
  let usedSpace;
  /**
   * A new host in a fresh space, or (`used`) in a space Repa worked in before: its `.repa/` made,
   * the files identified by earlier conversations, the process's store for it still open (as in
   * the daemon, which keeps one per space). The files are put back with mtimes a minute old, as
   * for files nobody touched in the last seconds; each conversation is a new host and session.
   */
  const openHost = async (used = false) => {
    let space;
    if (used) {
      usedSpace ??= freshSpace();
      space = usedSpace;
      resetFiles(space);
      const past = new Date(Date.now() - 60_000);
      for (const path of FILES) utimesSync(join(space, path), past, past);
    } else {
      space = freshSpace();
    }
    hostSpace = space;
    host = await PiConversationHost.open({
      space,
      appDirectory,
      agentDir,
      modelRuntime,
      model,
      piSettings: piSettings(),
    });
    faux.setResponses(script(replyDelayMs));
  };

  /** Both sides must really have edited every file, or the comparison means nothing. */
  const check = (text, space, who) => {
    if (!text?.startsWith('Marked notes/topic-5.md')) {
      throw new Error(`${who}: the scripted conversation did not finish (last reply: ${text})`);
    }
    for (const [index, path] of FILES.entries()) {
      const saved = readFileSync(join(space, path), 'utf8');
      if (!saved.includes(`Status: reviewed in turn ${index + 1}`)) {
        throw new Error(`${who}: ${path} was not edited`);
      }
    }
  };

  const repaConversation = async () => {
    for (let turn = 0; turn < TURNS; turn++) {
      const outcome = await host.send(`Review turn ${turn + 1}`, settings);
      if (outcome.status !== 'succeeded') throw new Error(JSON.stringify(outcome.error));
    }
  };

  const bareSide = (name, durable, tools, extension = false) => ({
    name,
    beforeEach: () => openBare(durable, tools, extension),
    fn: async () => {
      for (let turn = 0; turn < TURNS; turn++) await bare.prompt(`Review turn ${turn + 1}`);
    },
    afterEach: () => {
      check(bare.getLastAssistantText(), bare.sessionManager.getCwd(), name);
      const requests = noopContextCalls - noopCallsBefore;
      if (extension && requests < TURNS * 3) {
        throw new Error(`${name}: the no-op extension's context handler ran ${requests} times`);
      }
      bare.dispose();
    },
  });
  const repaSide = {
    name: 'Repa PiConversationHost',
    beforeEach: () => openHost(),
    fn: repaConversation,
    afterEach: () => {
      check(host.session.getLastAssistantText(), hostSpace, 'Repa');
      host.dispose();
    },
  };
  const repaUsedSide = {
    ...repaSide,
    name: 'Repa PiConversationHost, in a space it used before',
    beforeEach: () => openHost(true),
  };
  const compare = (label, measureRounds, measureIterations, sides) =>
    measureSides({
      iterations: measureIterations,
      rounds: measureRounds,
      warmup: 2,
      onRound: progress(label, measureRounds),
      sides,
    });
  /**
   * Bare Pi in four forms, plain bare Pi once more (the A/A pair), Repa in a space it used
   * before, then Repa as in the target rows (last: the side `bench/profile.mjs turn repa`
   * measures): the same conversation on each.
   */
  const allSides = () => [
    bareSide('bare Pi AgentSession', false),
    bareSide('bare Pi AgentSession, durable edit', true),
    bareSide(
      'bare Pi AgentSession, Pi’s equivalents of Repa’s tools, durable',
      true,
      PI_EQUIVALENT_TOOLS,
    ),
    bareSide(
      'bare Pi AgentSession, Pi’s equivalents of Repa’s tools, durable, a no-op extension',
      true,
      PI_EQUIVALENT_TOOLS,
      true,
    ),
    // The same plain bare Pi again: an A/A pair shows how far two identical sides differ here.
    bareSide('bare Pi AgentSession (again)', false),
    repaUsedSide,
    repaSide,
  ];
  const [pi, piDurable, piEquivalent, piShaped, piAgain, repaUsed, repa] = await compare(
    'turn overhead',
    rounds,
    iterations,
    allSides(),
  );
  // The same conversation with every reply held back 50 ms (faster than any real model): how the
  // fixed overhead weighs once the model takes time. The ratios sit within a few percent of 1, so
  // this comparison takes 20 samples per side (a conversation is ~0.8 s; seven sides: ~2.5 min).
  replyDelayMs = REPLY_DELAY_MS;
  const delayedRounds = 4;
  const [
    piDelayed,
    piDurableDelayed,
    piEquivalentDelayed,
    piShapedDelayed,
    piAgainDelayed,
    repaUsedDelayed,
    repaDelayed,
  ] = await compare(
    `turn overhead, replies after ${REPLY_DELAY_MS} ms`,
    delayedRounds,
    Math.max(2, Math.round((20 * scale) / delayedRounds)),
    allSides(),
  );
  replyDelayMs = 0;

  // Where Repa's extra time goes: a few more conversations with the content layer's entry points
  // timed (wall clock, so waits for fsync count too; the CPU profile cannot show those).
  log(`turn overhead: breakdown over ${BREAKDOWN_RUNS} more conversations`);
  const pool = poolRequests();
  /** `runs` more conversations with the content layer timed; thread-pool requests per conversation. */
  const measureBreakdown = async (runs) => {
    pool.count = 0;
    const timed = await timeContentLayer(async () => {
      for (let run = 0; run < runs; run++) {
        await openHost();
        pool.counting = true;
        await repaConversation();
        pool.counting = false;
        host.dispose();
      }
    });
    return { timed, poolRequests: pool.count / runs };
  };
  const { timed: breakdown, poolRequests: poolRequestsPerConversation } =
    await measureBreakdown(BREAKDOWN_RUNS);
  // The same with every reply held back 50 ms: the pauses between tool calls and an idle machine
  // between turns, which the zero-latency rows cannot show.
  log(
    `turn overhead: breakdown over ${BREAKDOWN_DELAYED_RUNS} conversations, replies after ${REPLY_DELAY_MS} ms`,
  );
  replyDelayMs = REPLY_DELAY_MS;
  const { timed: delayedBreakdown, poolRequests: delayedPoolRequestsPerConversation } =
    await measureBreakdown(BREAKDOWN_DELAYED_RUNS);
  pool.disable();
  replyDelayMs = 0;
  rmSync(base, { recursive: true, force: true });
  const part = (label, { ms, calls }, runs = BREAKDOWN_RUNS, delayed = false) => ({
    kind: 'metric',
    bench: 'turn overhead (breakdown)',
    case: `${label} per conversation${delayed ? `, replies after ${REPLY_DELAY_MS} ms` : ''}`,
    value: ms / runs,
    unit: 'ms',
    target: null,
    samples: runs,
    note: delayed
      ? `${(calls / runs).toFixed(0)} calls; Repa median ${repaDelayed.median.toFixed(0)} ms, bare Pi ${piDelayed.median.toFixed(0)} ms`
      : `${(calls / runs).toFixed(0)} calls; Repa median ${repa.median.toFixed(0)} ms, bare Pi ${pi.median.toFixed(0)} ms`,
  });
  const tools = `${PI_EQUIVALENT_TOOLS.join(', ')}; edit and write durable`;
  const row = (caseText, baselineLabel, baseline, candidate, target = null, candidateLabel) => ({
    bench: 'turn overhead',
    case: caseText,
    ...(baselineLabel ? { baselineLabel } : {}),
    baseline,
    ...(candidateLabel ? { candidateLabel } : {}),
    candidate,
    target,
  });
  const delayed = `replies after ${REPLY_DELAY_MS} ms`;
  return [
    row(`${TURNS} turns × (read + edit + answer), faux model`, null, pi, repa, { max: 1.1 }),
    row(
      'the same vs bare Pi whose edit writes durably (temp, fsync, rename, folder fsync)',
      'bare Pi, durable edit',
      piDurable,
      repa,
      { max: 1.1 },
    ),
    row(
      `the same vs bare Pi offering Pi’s own equivalents of Repa’s tools (${tools}) (diagnostic)`,
      'bare Pi, 6 tools, durable',
      piEquivalent,
      repa,
    ),
    row(
      'the same vs bare Pi with those tools and a no-op extension (handlers for before_agent_start, context, context_with_system that change nothing) (diagnostic)',
      'bare Pi, 6 tools, durable, no-op ext.',
      piShaped,
      repa,
    ),
    row(
      'the same vs bare Pi, durable edit, with Repa in a space it used before (its .repa/ made, the files identified; a new host and session) (diagnostic)',
      'bare Pi, durable edit',
      piDurable,
      repaUsed,
      null,
      'Repa, space used before',
    ),
    row(
      'no Repa: bare Pi with the 6 tools (durable) vs bare Pi, durable edit — the target row’s baseline (diagnostic: Pi’s cost of the tool set)',
      'bare Pi, durable edit',
      piDurable,
      piEquivalent,
      null,
      'bare Pi, 6 tools, durable',
    ),
    row(
      'no Repa: bare Pi with the 6 tools (durable) and the no-op extension vs bare Pi, durable edit (diagnostic: Pi’s floor for a host shaped like Repa)',
      'bare Pi, durable edit',
      piDurable,
      piShaped,
      null,
      'bare Pi, 6 tools, durable, no-op ext.',
    ),
    row(
      'no Repa: plain bare Pi vs itself, a second identical side in the same rounds (diagnostic: the resolution of these rows)',
      null,
      pi,
      piAgain,
      null,
      'bare Pi',
    ),
    row(`the same, every faux reply after ${REPLY_DELAY_MS} ms`, null, piDelayed, repaDelayed, {
      max: 1.02,
    }),
    row(
      `the same, ${delayed}, with Repa in a space it used before (diagnostic)`,
      null,
      piDelayed,
      repaUsedDelayed,
      null,
      'Repa, space used before',
    ),
    row(
      `the same, ${delayed}, vs bare Pi, durable edit (diagnostic)`,
      'bare Pi, durable edit',
      piDurableDelayed,
      repaDelayed,
    ),
    row(
      `the same, ${delayed}, vs bare Pi with the 6 tools and the no-op extension (diagnostic)`,
      'bare Pi, 6 tools, durable, no-op ext.',
      piShapedDelayed,
      repaDelayed,
    ),
    row(
      `no Repa: ${delayed}, bare Pi with the 6 tools (durable) vs plain bare Pi — this latency’s target baseline (diagnostic)`,
      null,
      piDelayed,
      piEquivalentDelayed,
      null,
      'bare Pi, 6 tools, durable',
    ),
    row(
      `no Repa: ${delayed}, bare Pi with the 6 tools (durable) and the no-op extension vs plain bare Pi (diagnostic: Pi’s floor)`,
      null,
      piDelayed,
      piShapedDelayed,
      null,
      'bare Pi, 6 tools, durable, no-op ext.',
    ),
    row(
      `no Repa: ${delayed}, plain bare Pi vs itself (diagnostic: the resolution of these rows)`,
      null,
      piDelayed,
      piAgainDelayed,
      null,
      'bare Pi',
    ),
    part('ContentObserver.checkChanges (the context hook)', breakdown.checkChanges),
    part('ContentStore.save (edit tool)', breakdown.save),
    part('ContentStore.read outside checkChanges (read + edit tools)', breakdown.read),
    part(
      'ContentObserver.checkChanges',
      delayedBreakdown.checkChanges,
      BREAKDOWN_DELAYED_RUNS,
      true,
    ),
    part('ContentStore.save', delayedBreakdown.save, BREAKDOWN_DELAYED_RUNS, true),
    part(
      'ContentStore.read outside checkChanges',
      delayedBreakdown.read,
      BREAKDOWN_DELAYED_RUNS,
      true,
    ),
    poolRow(poolRequestsPerConversation, BREAKDOWN_RUNS, false),
    poolRow(delayedPoolRequestsPerConversation, BREAKDOWN_DELAYED_RUNS, true),
  ];
}

/** A metric row: thread-pool requests per Repa conversation (zero-latency or delayed replies). */
function poolRow(value, samples, delayed) {
  return {
    kind: 'metric',
    bench: 'turn overhead (breakdown)',
    case: `file-system requests through the thread pool per conversation${delayed ? `, replies after ${REPLY_DELAY_MS} ms` : ''}`,
    value,
    unit: 'requests',
    target: null,
    samples,
    note: 'async_hooks FSREQ* resources: fsyncs, the space lock’s mkdir/stat/rmdir, Pi’s own calls',
  };
}

/**
 * Counts the file-system requests that go through libuv's thread pool (`FSREQCALLBACK` /
 * `FSREQPROMISE` async resources) while `counting` is set: each is a round trip that a call made on
 * the calling thread would not pay.
 */
function poolRequests() {
  const counter = { counting: false, count: 0, disable: () => hook.disable() };
  const hook = createHook({
    init(_id, type) {
      if (counter.counting && type.startsWith('FSREQ')) counter.count += 1;
    },
  }).enable();
  return counter;
}

/**
 * Runs `task` with ContentStore.read/save and ContentObserver.checkChanges timed; reads made by
 * checkChanges count only there. The prototypes are restored afterwards.
 */
async function timeContentLayer(task) {
  const totals = {
    checkChanges: { ms: 0, calls: 0 },
    save: { ms: 0, calls: 0 },
    read: { ms: 0, calls: 0 },
  };
  let checking = 0;
  const originals = [];
  const wrap = (prototype, method, key, { counts = () => true, marks = false } = {}) => {
    const original = prototype[method];
    originals.push(() => {
      prototype[method] = original;
    });
    prototype[method] = async function timed(...args) {
      const counted = counts();
      if (marks) checking += 1;
      const started = performance.now();
      try {
        return await original.apply(this, args);
      } finally {
        if (marks) checking -= 1;
        if (counted) {
          totals[key].ms += performance.now() - started;
          totals[key].calls += 1;
        }
      }
    };
  };
  wrap(ContentObserver.prototype, 'checkChanges', 'checkChanges', { marks: true });
  wrap(ContentStore.prototype, 'save', 'save');
  wrap(ContentStore.prototype, 'read', 'read', { counts: () => checking === 0 });
  try {
    await task();
  } finally {
    for (const restore of originals) restore();
  }
  return totals;
}
