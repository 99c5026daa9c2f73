// Where Repa's extra time goes: more conversations through Repa's host with the content layer's
// entry points timed (wall clock, so waits for fsync count too; a CPU profile cannot show those)
// and the file-system requests that went through libuv's thread pool counted.
import { createHook } from 'node:async_hooks';
import { ContentObserver, ContentStore } from '@repa/content';
import { log } from '../../lib/progress.mjs';
import { REPLY_DELAY_MS } from './conversation.mjs';
import { openRepaHost, repaConversation } from './sides.mjs';

const BREAKDOWN_RUNS = 5;
const BREAKDOWN_DELAYED_RUNS = 3;

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

/**
 * The breakdown over BREAKDOWN_RUNS conversations with zero-latency replies, then over
 * BREAKDOWN_DELAYED_RUNS with every reply held back REPLY_DELAY_MS (the pauses between tool calls
 * and an idle machine between turns, which the zero-latency rows cannot show). Leaves
 * `env.replyDelayMs` at 0.
 * @param {import('./sides.mjs').TurnEnvironment} env
 */
export async function measureBreakdowns(env, settings) {
  log(`turn overhead: breakdown over ${BREAKDOWN_RUNS} more conversations`);
  const pool = poolRequests();
  /** `runs` more conversations, the content layer timed; thread-pool requests per conversation. */
  const measure = async (runs) => {
    pool.count = 0;
    const timed = await timeContentLayer(async () => {
      for (let run = 0; run < runs; run++) {
        const { host } = await openRepaHost(env);
        pool.counting = true;
        await repaConversation(host, settings);
        pool.counting = false;
        host.dispose();
      }
    });
    return { timed, poolRequests: pool.count / runs };
  };
  const zero = await measure(BREAKDOWN_RUNS);
  log(
    `turn overhead: breakdown over ${BREAKDOWN_DELAYED_RUNS} conversations, replies after ${REPLY_DELAY_MS} ms`,
  );
  env.replyDelayMs = REPLY_DELAY_MS;
  const delayed = await measure(BREAKDOWN_DELAYED_RUNS);
  pool.disable();
  env.replyDelayMs = 0;
  return { zero, delayed };
}

/**
 * The breakdown's metric rows; the notes give the medians of Repa's side and plain bare Pi at the
 * same latency.
 * @param {Awaited<ReturnType<typeof measureBreakdowns>>} breakdowns
 * @param {Record<'repa' | 'pi' | 'repaDelayed' | 'piDelayed',
 *   import('../../lib/compare.mjs').Stats>} medians
 */
export function breakdownRows({ zero, delayed }, { repa, pi, repaDelayed, piDelayed }) {
  const part = (label, { ms, calls }, runs = BREAKDOWN_RUNS, isDelayed = false) => ({
    kind: 'metric',
    bench: 'turn overhead (breakdown)',
    case: `${label} per conversation${isDelayed ? `, replies after ${REPLY_DELAY_MS} ms` : ''}`,
    value: ms / runs,
    unit: 'ms',
    target: null,
    samples: runs,
    note: isDelayed
      ? `${(calls / runs).toFixed(0)} calls; Repa median ${repaDelayed.median.toFixed(0)} ms, bare Pi ${piDelayed.median.toFixed(0)} ms`
      : `${(calls / runs).toFixed(0)} calls; Repa median ${repa.median.toFixed(0)} ms, bare Pi ${pi.median.toFixed(0)} ms`,
  });
  const runs = BREAKDOWN_DELAYED_RUNS;
  return [
    part('ContentObserver.checkChanges (the context hook)', zero.timed.checkChanges),
    part('ContentStore.save (edit tool)', zero.timed.save),
    part('ContentStore.read outside checkChanges (read + edit tools)', zero.timed.read),
    part('ContentObserver.checkChanges', delayed.timed.checkChanges, runs, true),
    part('ContentStore.save', delayed.timed.save, runs, true),
    part('ContentStore.read outside checkChanges', delayed.timed.read, runs, true),
    poolRow(zero.poolRequests, BREAKDOWN_RUNS, false),
    poolRow(delayed.poolRequests, runs, true),
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
