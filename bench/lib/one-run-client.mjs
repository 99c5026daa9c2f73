// A minimal client process: connects to the daemon, creates a session, runs one request to its
// end and exits. Stands in for `repa run` while the CLI has no run command yet.
// Usage: node one-run-client.mjs <socketPath> <space> <text>
import { randomUUID } from 'node:crypto';
import { createRepaClient } from '@repa/protocol/node';
import { terminalStatus } from './tracking-client.mjs';

const [socketPath, space, text] = process.argv.slice(2);
const client = createRepaClient({ socketPath }, { client: { name: 'repa-bench', version: '0' } });
const { session } = await client.request('session.create', { space });
const follower = client.followRun(() =>
  client.request('run.submit', {
    space,
    sessionId: session.sessionId,
    requestId: randomUUID(),
    input: { type: 'text', text },
  }),
);
const status = await terminalStatus(follower);
const { run } = await follower.accepted;
await client.close();
if (status !== 'succeeded') {
  process.stderr.write(`run ${run.runId} ended ${status}\n`);
  process.exitCode = 1;
}
