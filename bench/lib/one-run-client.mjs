// A minimal client process: connects to the daemon, creates a session, runs one request to its
// end and exits. Stands in for `repa run` while the CLI has no run command yet.
// Usage: node one-run-client.mjs <socketPath> <space> <text>
import { randomUUID } from 'node:crypto';
import { createRepaClient, isTerminalRunStatus } from '@repa/protocol';

const [socketPath, space, text] = process.argv.slice(2);
const client = createRepaClient({ socketPath }, { client: { name: 'repa-bench', version: '0' } });
const terminal = new Map();
const waiters = new Map();
client.on('run.event', ({ runId, event }) => {
  if (event.type !== 'status' || !isTerminalRunStatus(event.status)) return;
  terminal.set(runId, event.status);
  waiters.get(runId)?.(event.status);
});
const { session } = await client.request('session.create', { space });
const { run } = await client.request('run.submit', {
  space,
  sessionId: session.sessionId,
  requestId: randomUUID(),
  input: { type: 'text', text },
});
const status =
  terminal.get(run.runId) ?? (await new Promise((resolve) => waiters.set(run.runId, resolve)));
await client.close();
if (status !== 'succeeded') {
  process.stderr.write(`run ${run.runId} ended ${status}\n`);
  process.exitCode = 1;
}
