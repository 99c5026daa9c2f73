// A protocol client that knows when each of its runs ended (shared by the daemon benchmarks).
import { randomUUID } from 'node:crypto';
import { createRepaClient, isTerminalRunStatus } from '@repa/protocol';

/**
 * A connection to the daemon at `socketPath`. `submit` sends one run and resolves with the submit
 * latency (ms) and a promise of its terminal status, whether that arrives before or after the
 * answer; `run` also waits for the end, fails unless it succeeded, and adds the total time (ms).
 */
export function trackingClient(socketPath) {
  const client = createRepaClient({ socketPath }, { client: { name: 'repa-bench', version: '0' } });
  const ended = new Map();
  const waiting = new Map();
  client.on('run.event', ({ runId, event }) => {
    if (event.type !== 'status' || !isTerminalRunStatus(event.status)) return;
    ended.set(runId, event.status);
    waiting.get(runId)?.(event.status);
  });
  const submit = async (space, sessionId, text) => {
    const started = performance.now();
    const { run } = await client.request('run.submit', {
      space,
      sessionId,
      requestId: randomUUID(),
      input: { type: 'text', text },
    });
    const submitMs = performance.now() - started;
    const finished = (
      ended.has(run.runId)
        ? Promise.resolve(ended.get(run.runId))
        : new Promise((resolve) => waiting.set(run.runId, resolve))
    ).then((status) => {
      ended.delete(run.runId);
      waiting.delete(run.runId);
      return status;
    });
    return { runId: run.runId, submitMs, finished, started };
  };
  const run = async (space, sessionId, text) => {
    const { runId, submitMs, finished, started } = await submit(space, sessionId, text);
    const status = await finished;
    if (status !== 'succeeded') throw new Error(`run ${runId} ended ${status}`);
    return { submitMs, totalMs: performance.now() - started };
  };
  return { client, submit, run };
}
