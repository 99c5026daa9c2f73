// Benchmark — prompt prefix: a scripted 20-run session through the real daemon against a local
// endpoint speaking the Anthropic Messages protocol, capturing every request as the provider
// receives it. For each request: the share of the previous conversation request that it repeats
// byte for byte as its prefix (what a provider's prompt cache can serve), and where it breaks.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAnthropicEndpoint } from '@repa/fixtures';
import { startDaemon, stopDaemon } from '../lib/daemon-process.mjs';
import { log } from '../lib/progress.mjs';
import { trackingClient } from '../lib/tracking-client.mjs';
import { barePiRequest, fixedCostRows, withoutCacheMarks } from './prompt-fixed-cost.mjs';

/**
 * Target: every request repeats the previous one whole, except the first after a compaction; a
 * learning-context change may append a message but never rewrite an earlier one, so it is held to
 * the same 100%.
 */
const TARGET = { min: 100 };
/** A reasoning model, run with thinking on: every reply starts with a signed thinking block. */
const MODEL = 'local/claude-local';
const THINKING = {
  type: 'thinking',
  thinking: 'What does the learner need here?',
  signature: 'sig',
};

const text = (value) => ({ kind: 'message', blocks: [THINKING, { type: 'text', text: value }] });
let calls = 0;
const tool = (name, input) => ({
  kind: 'message',
  blocks: [THINKING, { type: 'tool_use', name, input, id: `toolu_bench_${++calls}` }],
});

/** The notes the session works on. */
const NOTES = {
  'notes/tides.md': '# Tides\n\nTwo high tides a day, about 12 h 25 min apart.\n',
  'notes/moon.md': '# The moon\n\nIts gravity pulls the oceans; the sun adds spring tides.\n',
  'notes/waves.md': '# Waves\n\nA tidal bore is a wave running up a river against its flow.\n',
};

/**
 * The session: runs (with the endpoint's replies for them, in order) and the steps between runs
 * that may change what the model is shown. 20 runs.
 */
const STEPS = [
  { run: 'What do my notes on tides say?', replies: [tool('read', { path: 'notes/tides.md' })] },
  { run: 'And about the moon?', replies: [tool('read', { path: 'notes/moon.md' })] },
  { run: 'Why two tides a day?' },
  {
    run: 'Add the spring tides to my tides note.',
    replies: [
      tool('edit', {
        path: 'notes/tides.md',
        edits: [{ oldText: '12 h 25 min apart.', newText: '12 h 25 min apart. Spring tides.' }],
      }),
    ],
  },
  {
    run: 'Write a one-line summary file.',
    replies: [tool('write', { path: 'summary.md', content: 'Tides: moon and sun.\n' })],
  },
  { step: 'learning context set', context: 'Learner: first-year oceanography. Goal: tides.' },
  { run: 'What should I study next?' },
  { run: 'Find where I mention a bore.', replies: [tool('grep', { pattern: 'bore' })] },
  { run: 'Read that note.', replies: [tool('read', { path: 'notes/waves.md' })] },
  { step: 'a read file changed outside the session', touch: 'notes/moon.md' },
  { run: 'Anything new in my notes?' },
  { run: 'Which notes do I have?', replies: [tool('find', { pattern: '**/*.md' })] },
  { step: 'daemon restarted', restart: true },
  { run: 'Quiz me on tides.' },
  { run: 'The answer is the moon.' },
  { step: 'compaction', compact: true },
  { run: 'Where were we?' },
  { run: 'Show me the tides note again.', replies: [tool('read', { path: 'notes/tides.md' })] },
  {
    run: 'Fix a typo in it.',
    replies: [
      tool('edit', {
        path: 'notes/tides.md',
        edits: [{ oldText: 'Two high tides', newText: 'Two high tides' }],
      }),
    ],
  },
  { run: 'What is in the notes folder?', replies: [tool('ls', { path: 'notes' })] },
  { step: 'learning context changed', context: 'Learner: first-year oceanography. Goal: bores.' },
  { run: 'So what now?' },
  { run: 'Where do I write about the sun?', replies: [tool('grep', { pattern: 'sun' })] },
  { run: 'Add that to the summary.', replies: [tool('read', { path: 'summary.md' })] },
  { run: 'Thanks, that is all.' },
];

/**
 * The request's parts in the order Anthropic's cache reads a prompt (tools, then system, then
 * messages), each the JSON of what the endpoint received without cache markers; with the offsets
 * where each part starts, so a break can be named.
 */
function layout(body) {
  const parts = [
    ...(body.tools ?? []).map((entry, index) => ({ name: `tool ${index} (${entry.name})`, entry })),
    ...[body.system ?? []].flat().map((entry, index) => ({ name: `system block ${index}`, entry })),
    ...(body.messages ?? []).map((entry, index) => ({
      name: `message ${index} (${entry.role})`,
      entry,
    })),
  ];
  let offset = 0;
  const spans = [];
  let all = '';
  for (const part of parts) {
    const json = JSON.stringify(withoutCacheMarks(part.entry));
    spans.push({ name: part.name, start: offset, json });
    all += json;
    offset += Buffer.byteLength(json);
  }
  return { text: all, bytes: Buffer.from(all), spans };
}

function commonPrefix(a, b) {
  const length = Math.min(a.length, b.length);
  let index = 0;
  while (index < length && a[index] === b[index]) index++;
  return index;
}

/** Where request `next` first differs from `previous`: the part, and a few characters either side. */
function breakAt(previous, next, at) {
  const span = [...next.spans].reverse().find((part) => part.start <= at);
  const before = [...previous.spans].reverse().find((part) => part.start <= at);
  const around = (request) =>
    request.bytes
      .subarray(Math.max(0, at - 40), at + 60)
      .toString('utf8')
      .replace(/\s+/g, ' ');
  return {
    part: span?.name ?? '(end)',
    previousPart: before?.name ?? '(end)',
    was: around(previous),
    now: around(next),
  };
}

/** Runs the scripted session and returns one record per conversation request. */
async function session(base) {
  const endpoint = await startAnthropicEndpoint([text('ok')]);
  const agentDir = join(base, 'agent');
  mkdirSync(agentDir, { recursive: true });
  endpoint.configure(agentDir, { apiKey: 'bench-key' });
  // Pi keeps the newest 20,000 tokens out of a compaction; this short session keeps ~300.
  const piSettings = { compaction: { keepRecentTokens: 300 } };
  writeFileSync(join(agentDir, 'settings.json'), JSON.stringify(piSettings));
  const space = join(base, 'space');
  for (const [path, body] of Object.entries(NOTES)) {
    mkdirSync(join(space, path, '..'), { recursive: true });
    writeFileSync(join(space, path), body);
  }
  let daemon = await startDaemon(join(base, 'app'), agentDir, MODEL);
  let client = trackingClient(daemon.socketPath);
  const labelled = [];
  const mark = (label) => {
    const from = labelled.length;
    for (let index = from; index < endpoint.requests.length; index++) {
      labelled.push({ ...endpoint.requests[index], label });
    }
  };
  let bare;
  try {
    await client.client.request('space.open', { root: space });
    await client.client.request('settings.set', {
      level: 'application',
      key: 'model.thinkingLevel',
      value: 'low',
    });
    const { session: created } = await client.client.request('session.create', { space });
    const sessionId = created.sessionId;
    let revision = null;
    let pending = [];
    let runs = 0;
    for (const step of STEPS) {
      if (step.run !== undefined) {
        runs += 1;
        endpoint.replies = [...(step.replies ?? []), text(`Answer ${runs}.`)];
        await client.run(space, sessionId, step.run);
        mark({ run: runs, after: pending });
        pending = [];
        continue;
      }
      pending.push(step.step);
      if (step.context !== undefined) {
        ({ revision } = await client.client.request('context.set', {
          space,
          body: step.context,
          sources: [],
          expectedRevision: revision,
        }));
      } else if (step.restart) {
        // A new daemon (as after its idle exit): a new host resumes the session from its file.
        await client.client.close();
        await stopDaemon(daemon);
        daemon = await startDaemon(join(base, 'app'), agentDir, MODEL);
        client = trackingClient(daemon.socketPath);
        await client.client.request('space.open', { root: space });
      } else if (step.touch !== undefined) {
        writeFileSync(join(space, step.touch), `${NOTES[step.touch]}\nNeap tides too.\n`);
      } else if (step.compact) {
        endpoint.replies = [text('Summary: tides, the moon, a bore; the learner is quizzed.')];
        await client.client.request('session.compact', { space, sessionId });
        mark({ summary: true });
      }
    }
    if (labelled.length !== endpoint.requests.length) throw new Error('unlabelled requests');
    bare = await barePiRequest(base, agentDir, endpoint, { model: MODEL, reply: text('ok') });
  } finally {
    await client.client.close().catch(() => undefined);
    await stopDaemon(daemon);
    await endpoint.close();
  }
  return { requests: labelled, bare };
}

/** Runs the prompt-prefix benchmark and returns its rows (one per conversation request). */
export async function promptPrefix() {
  const base = mkdtempSync(join(tmpdir(), 'repa-bench-prefix-'));
  try {
    log('prefix: a scripted 20-run session through the daemon against an Anthropic endpoint');
    const { requests, bare } = await session(base);
    if (process.env.REPA_BENCH_DUMP) {
      const dump = { repa: requests[0].body, pi: bare.body, last: requests.at(-1).body };
      writeFileSync(process.env.REPA_BENCH_DUMP, JSON.stringify(dump, null, 2));
    }
    const rows = [];
    let previous;
    let index = 0;
    for (const request of requests) {
      index += 1;
      const laid = layout(request.body);
      if (request.label.summary) {
        rows.push({
          kind: 'metric',
          bench: 'prompt prefix',
          case: `request ${index}: the compaction's summary request (its own prompt; not compared)`,
          value: laid.bytes.length / 1024,
          unit: 'KiB',
          target: null,
          note: 'Pi’s summarisation request',
        });
        continue;
      }
      const { run, after } = request.label;
      const what = `request ${index}, run ${run}${after.length > 0 ? ` (after: ${after.join(', ')})` : ''}`;
      if (previous === undefined) {
        rows.push({
          kind: 'metric',
          bench: 'prompt prefix',
          case: `${what}: the first request`,
          value: laid.bytes.length / 1024,
          unit: 'KiB',
          target: null,
          note: '',
        });
        previous = laid;
        continue;
      }
      const kept = commonPrefix(previous.bytes, laid.bytes);
      const share = (100 * kept) / previous.bytes.length;
      const excepted = after.includes('compaction');
      const broken = kept < previous.bytes.length ? breakAt(previous, laid, kept) : undefined;
      rows.push({
        kind: 'metric',
        bench: 'prompt prefix',
        case: `${what}: share of the previous request repeated as this one's prefix`,
        value: share,
        unit: '%',
        target: excepted ? null : TARGET,
        samples: 1,
        note: [
          `${(kept / 1024).toFixed(1)} of ${(previous.bytes.length / 1024).toFixed(1)} KiB kept; request ${(laid.bytes.length / 1024).toFixed(1)} KiB`,
          broken
            ? `breaks in ${broken.part} (was ${broken.previousPart}): “…${broken.was}…” → “…${broken.now}…”`
            : '',
          excepted ? 'excepted: the history before it is now a summary' : '',
        ]
          .filter(Boolean)
          .join('; '),
        detail: broken,
      });
      previous = laid;
    }
    const held = rows.filter((row) => row.target !== null);
    const broken = held.filter((row) => row.value < 100);
    const runs = new Set(requests.map((request) => request.label.run).filter(Boolean));
    rows.push({
      kind: 'metric',
      bench: 'prompt prefix',
      case: `requests that repeat the previous request whole, outside the compaction (${runs.size} runs, ${requests.length} requests)`,
      value: (100 * (held.length - broken.length)) / held.length,
      unit: '%',
      target: TARGET,
      samples: held.length,
      note:
        broken.length === 0
          ? 'no break outside the compaction'
          : `breaks: ${broken.map((row) => row.case.split(':')[0]).join('; ')}`,
    });
    rows.push(...fixedCostRows(requests[0].body, bare.body));
    return rows;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
