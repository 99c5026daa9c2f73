import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDaemon } from '@repa/application';
import { createRepaClient } from '@repa/protocol/node';

const base = mkdtempSync(join(tmpdir(), 'repa-application-example-'));
const space = join(base, 'biology');
mkdirSync(space);

// The daemon side: protocol v1 on <appDirectory>/run/daemon.sock. `repa-offline` is Repa's
// built-in offline model (no network, no keys); leave `model` out to use Pi's configured models.
const daemon = await runDaemon({
  appDirectory: join(base, 'app'),
  agentDir: join(base, 'agent'),
  model: 'repa-offline',
});

const client = createRepaClient(
  { socketPath: daemon.socketPath },
  { client: { name: 'my-tool', version: '1.0.0' } },
);
const { session } = await client.request('session.create', { space });
const follower = client.followRun(() =>
  client.request('run.submit', {
    space,
    sessionId: session.sessionId,
    requestId: 'request-1',
    input: { type: 'text', text: 'What do ribosomes do?' },
  }),
);
const { run } = await follower.accepted;
for await (const update of follower) {
  if (update.kind === 'event' && update.notification.event.type === 'status') {
    console.log(`run ${run.runId}: ${update.notification.event.status}`);
  }
}
const { run: ended } = await client.request('run.get', { runId: run.runId });
console.log(`output: ${ended.output}`);
await client.close();
await daemon.close();
