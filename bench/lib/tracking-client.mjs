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
 * clients of it, `a` and `b`, each with a session of `space` (opened first) as `sessionId`: one
 * loads the daemon while the other measures. `close` closes both and stops the daemon.
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
    return {
      daemon,
      a: { ...a, sessionId: sessionA.sessionId },
      b: { ...b, sessionId: sessionB.sessionId },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
