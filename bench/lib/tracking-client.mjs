// A protocol client that knows when each of its runs ended (shared by the daemon benchmarks).
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createRepaClient } from '@repa/protocol/node';
import { startDaemon, stopDaemon } from './daemon-process.mjs';

/** The status a followed run ended with: its terminal status event, or the run that ended it. */
export async function terminalStatus(follower) {
  let status = (await follower.accepted).run.status;
  for await (const update of follower) {
    if (update.kind === 'resumed') status = update.run.status;
    else if (update.notification.event.type === 'status') status = update.notification.event.status;
  }
  return status;
}

/**
 * A connection to the daemon at `socketPath`. `submit` sends one run and resolves with the submit
 * latency (ms) and a promise of its terminal status, whether that arrives before or after the
 * answer; `run` also waits for the end, fails unless it succeeded, and adds the total time (ms).
 */
export function trackingClient(socketPath) {
  const client = createRepaClient({ socketPath }, { client: { name: 'repa-bench', version: '0' } });
  const submit = async (space, sessionId, text) => {
    const started = performance.now();
    let submitMs;
    const follower = client.followRun(async () => {
      const answer = await client.request('run.submit', {
        space,
        sessionId,
        requestId: randomUUID(),
        input: { type: 'text', text },
      });
      submitMs = performance.now() - started;
      return answer;
    });
    const { run } = await follower.accepted;
    return { runId: run.runId, submitMs, finished: terminalStatus(follower), started };
  };
  const run = async (space, sessionId, text) => {
    const { runId, submitMs, finished, started } = await submit(space, sessionId, text);
    const status = await finished;
    if (status !== 'succeeded') throw new Error(`run ${runId} ended ${status}`);
    return { submitMs, totalMs: performance.now() - started };
  };
  return { client, submit, run };
}

/**
 * A daemon started for `base` (its app dir `base/app`, Pi's agent dir `base/agent`) and two
 * clients of it, `a` and `b`, each with a session of `space` (opened first) as `sessionId`: A
 * loads the daemon while B measures. `alone(text, count)`: B's submit latencies (ms, ascending)
 * over `count` runs of `text` with A idle. `beside(heavy, light)`: A runs `heavy` while B runs
 * `light` again and again; A's run and B's runs that ended while A's was under way. `close`
 * closes both clients and stops the daemon.
 */
export async function twoClients(base, space) {
  const daemon = await startDaemon(join(base, 'app'), join(base, 'agent'));
  const a = trackingClient(daemon.socketPath);
  const b = trackingClient(daemon.socketPath);
  const close = async () => {
    await a.client.close().catch(() => undefined);
    await b.client.close().catch(() => undefined);
    await stopDaemon(daemon);
  };
  try {
    await a.client.request('space.open', { root: space });
    const { session: sessionA } = await a.client.request('session.create', { space });
    const { session: sessionB } = await b.client.request('session.create', { space });
    const alone = async (text, count) => {
      const submits = [];
      for (let index = 0; index < count; index++) {
        submits.push((await b.run(space, sessionB.sessionId, text)).submitMs);
      }
      return submits.sort((x, y) => x - y);
    };
    const beside = async (heavy, light) => {
      let busy = true;
      const reading = a.run(space, sessionA.sessionId, heavy).finally(() => {
        busy = false;
      });
      const runs = [];
      while (busy) {
        const run = await b.run(space, sessionB.sessionId, light);
        if (busy) runs.push(run);
      }
      return { heavy: await reading, beside: runs };
    };
    return {
      daemon,
      a: { ...a, sessionId: sessionA.sessionId },
      b: { ...b, sessionId: sessionB.sessionId },
      alone,
      beside,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
