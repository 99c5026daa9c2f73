import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { RepaError, type RunEventNotification } from '@repa/protocol';
import { createRepaClient } from '@repa/protocol/node';
import { afterEach, describe, expect, it } from 'vitest';
import { deferred, tempAppDirectory } from '../test/builders.js';
import { spawnDaemon as spawnDaemonChild } from '../test/spawn-daemon.js';

const builtEntry = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** Starts the test daemon script (on the built dist) and waits for its first line. */
async function spawnDaemon(appDirectory: string, generation: number) {
  const daemon = await spawnDaemonChild(appDirectory, generation);
  children.push(daemon.child);
  return daemon;
}

describe('startRepaServer', () => {
  describe('in a separate process', () => {
    it('is replaced after SIGKILL by a new daemon on the stale socket; the client reconnects and re-subscribes', async () => {
      expect(existsSync(builtEntry), 'build @repa/application first (turbo run build)').toBe(true);
      const appDirectory = tempAppDirectory();
      const first = await spawnDaemon(appDirectory, 1);
      expect(first.line).toMatch(/^ready /);
      const socketPath = first.line.slice('ready '.length);

      const client = createRepaClient({ socketPath }, { reconnectDelayMs: 20 });
      const seqs: number[] = [];
      const events = [deferred(), deferred()];
      client.on('run.event', (params: RunEventNotification) => {
        seqs.push(params.seq);
        events[params.seq - 1]?.resolve();
      });
      try {
        await client.request('run.subscribe', { runId: 'r1' });
        await events[0]?.promise;

        const refused = await spawnDaemon(appDirectory, 9);
        expect(refused.line).toBe('error daemon_already_running');
        expect(await refused.exited).toBe(1);

        const dropped = new Promise((resolve) => client.on('disconnect', resolve));
        first.child.kill('SIGKILL');
        await first.exited;
        await dropped;
        expect(existsSync(socketPath)).toBe(true); // Left behind by the crash...
        const unavailable = await client.request('run.get', { runId: 'r1' }).catch((e) => e);
        expect(RepaError.isInstance(unavailable) && unavailable.code).toBe('daemon_unavailable');

        const second = await spawnDaemon(appDirectory, 2); // ...and replaced.
        expect(second.line).toBe(`ready ${socketPath}`);
        expect((await client.request('run.get', { runId: 'r1' })).run.runId).toBe('r1');
        await events[1]?.promise;
        expect(seqs).toEqual([1, 2]);
      } finally {
        await client.close();
      }
    });
  });
});
