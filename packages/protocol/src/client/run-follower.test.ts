import { describe, expect, it } from 'vitest';
import {
  event,
  repaErrorOf,
  runInfo,
  type ScriptedConnection,
  useScriptedServers,
  withInitialize,
} from '../test/scripted-server.js';
import { RepaError } from '../v1/errors/repa-error.js';
import type { JsonRpcRequest } from '../v1/wire-types.generated.js';
import type { RunUpdate } from './run-follower.js';

const { serve, clientOf } = useScriptedServers();

const input = { type: 'text' as const, text: 'hi' };
const submitParams = { space: '/s', sessionId: 's1', requestId: 'q1', input };

/** Every update of a follower, as short strings, until it ends. */
async function collect(updates: AsyncIterable<RunUpdate>): Promise<string[]> {
  const seen: string[] = [];
  for await (const update of updates) {
    if (update.kind === 'resumed')
      seen.push(`resumed ${update.run.status} after ${update.afterSeq}`);
    else {
      const { seq, event: runEvent } = update.notification;
      seen.push(`${seq} ${runEvent.type === 'status' ? runEvent.status : runEvent.type}`);
    }
  }
  return seen;
}

/** A script answering run.submit with run r1 `running`, after `before` events, then `after`. */
function submitting(
  before: ReturnType<typeof event>[],
  after: ReturnType<typeof event>[],
  more: (m: JsonRpcRequest, c: ScriptedConnection) => void = () => {},
) {
  return withInitialize((m, c) => {
    if (m.method === 'run.submit') {
      for (const message of before) c.send(message);
      c.result(m.id, { run: runInfo(), resubmitted: false });
      for (const message of after) c.send(message);
    } else more(m, c);
  });
}

describe('RepaClient.followRun', () => {
  describe('following', () => {
    it('yields the events that came before the answer, then the rest, ending at the terminal status', async () => {
      const server = await serve(
        submitting(
          [
            event({ type: 'status', status: 'running' }, 1),
            event({ type: 'text-delta', delta: 'x' }, 9, 'r2'),
          ],
          [
            event({ type: 'text-delta', delta: 'Hi' }, 2),
            event({ type: 'status', status: 'succeeded' }, 3),
            event({ type: 'text-delta', delta: 'late' }, 4),
          ],
        ),
      );
      const client = clientOf(server);
      const follower = client.followRun(() => client.request('run.submit', submitParams));
      expect((await follower.accepted).run.runId).toBe('r1');
      expect(await collect(follower)).toEqual(['1 running', '2 text-delta', '3 succeeded']);
    });

    it('ends at once when the answer’s run has already ended (a request id seen before)', async () => {
      const server = await serve(
        withInitialize((m, c) =>
          c.result(m.id, { run: runInfo({ status: 'succeeded' }), resubmitted: true }),
        ),
      );
      const client = clientOf(server);
      const follower = client.followRun(() => client.request('run.submit', submitParams));
      expect((await follower.accepted).resubmitted).toBe(true);
      expect(await collect(follower)).toEqual([]);
    });

    it('yields an event seen twice once', async () => {
      const server = await serve(
        submitting(
          [event({ type: 'text-delta', delta: 'a' }, 1)],
          [
            event({ type: 'text-delta', delta: 'a' }, 1),
            event({ type: 'status', status: 'failed' }, 2),
          ],
        ),
      );
      const client = clientOf(server);
      const follower = client.followRun(() => client.request('run.submit', submitParams));
      expect(await collect(follower)).toEqual(['1 text-delta', '2 failed']);
    });

    it('throws what start threw, and rejects accepted with it', async () => {
      const server = await serve(
        withInitialize((m, c) => c.error(m.id, new RepaError('busy', 'session s1 is busy'))),
      );
      const client = clientOf(server);
      const follower = client.followRun(() => client.request('run.submit', submitParams));
      expect((await repaErrorOf(follower.accepted)).code).toBe('busy');
      expect((await repaErrorOf(collect(follower))).code).toBe('busy');
    });
  });

  describe('cancel', () => {
    it('sends run.cancel once the answer names the run, when asked before it', async () => {
      const server = await serve(
        submitting([], [], (m, c) => {
          if (m.method === 'run.cancel') {
            c.result(m.id, { run: runInfo({ status: 'cancelled' }) });
            c.send(event({ type: 'status', status: 'cancelled' }, 1));
          }
        }),
      );
      const client = clientOf(server);
      const follower = client.followRun(() => client.request('run.submit', submitParams));
      follower.cancel();
      follower.cancel();
      expect(follower.cancelling).toBe(true);
      expect(await collect(follower)).toEqual(['1 cancelled']);
      expect(server.connections[0]?.received.filter((m) => m.method === 'run.cancel')).toEqual([
        expect.objectContaining({ params: { runId: 'r1' } }),
      ]);
    });

    it('ignores not_found from run.cancel (the run ended meanwhile) but throws any other refusal', async () => {
      let refusal = new RepaError('not_found', 'no run r1');
      const server = await serve(
        submitting([], [], (m, c) => {
          if (m.method === 'run.cancel') {
            c.error(m.id, refusal);
            if (refusal.code === 'not_found')
              c.send(event({ type: 'status', status: 'succeeded' }, 1));
          }
        }),
      );
      const client = clientOf(server);
      const ended = client.followRun(() => client.request('run.submit', submitParams));
      ended.cancel();
      expect(await collect(ended)).toEqual(['1 succeeded']);
      refusal = new RepaError('unauthorized', 'no');
      const refused = client.followRun(() => client.request('run.submit', submitParams));
      refused.cancel();
      expect((await repaErrorOf(collect(refused))).code).toBe('unauthorized');
    });
  });

  describe('after a reconnection', () => {
    it('says what the re-subscription found and resumes with the events after it', async () => {
      const server = await serve(
        submitting([], [event({ type: 'text-delta', delta: 'a' }, 1)], (m, c) => {
          if (m.method === 'run.subscribe') {
            c.send(event({ type: 'text-delta', delta: 'c' }, 3));
            c.result(m.id, { run: runInfo({ status: 'running' }) });
            c.send(event({ type: 'status', status: 'succeeded' }, 4));
          }
        }),
      );
      const client = clientOf(server);
      const follower = client.followRun(() => client.request('run.submit', submitParams));
      const seen: string[] = [];
      for await (const update of follower) {
        seen.push(
          update.kind === 'resumed'
            ? `resumed ${update.run.status} after ${update.afterSeq}`
            : `${update.notification.seq}`,
        );
        if (seen.length === 1) server.connections[0]?.destroy(); // Seq 2 is lost with it.
      }
      expect(seen).toEqual(['1', 'resumed running after 1', '3', '4']);
      expect(server.connections).toHaveLength(2);
    });

    it('ends with the run the daemon has after a restart (interrupted), inventing no event', async () => {
      const server = await serve(
        submitting([], [event({ type: 'text-delta', delta: 'a' }, 1)], (m, c) => {
          if (m.method === 'run.subscribe')
            c.result(m.id, { run: runInfo({ status: 'interrupted' }) });
        }),
      );
      const client = clientOf(server);
      const follower = client.followRun(() => client.request('run.submit', submitParams));
      const seen: string[] = [];
      for await (const update of follower) {
        seen.push(update.kind);
        if (seen.length === 1) server.connections[0]?.destroy();
      }
      expect(seen).toEqual(['event', 'resumed']);
    });

    it('throws daemon_unavailable when no daemon answers any more', async () => {
      const server = await serve(submitting([], []));
      const client = clientOf(server, { reconnectAttempts: 2 });
      const follower = client.followRun(() => client.request('run.submit', submitParams));
      await follower.accepted;
      await server.close();
      expect((await repaErrorOf(collect(follower))).code).toBe('daemon_unavailable');
    });

    it('throws the re-subscription’s refusal (the daemon forgot the run)', async () => {
      const server = await serve(
        submitting([], [], (m, c) => {
          if (m.method === 'run.subscribe') c.error(m.id, new RepaError('not_found', 'no run r1'));
        }),
      );
      const client = clientOf(server);
      const follower = client.followRun(() => client.request('run.submit', submitParams));
      await follower.accepted;
      server.connections[0]?.destroy();
      expect((await repaErrorOf(collect(follower))).code).toBe('not_found');
    });
  });

  it('throws cancelled when its client is closed', async () => {
    const server = await serve(submitting([], []));
    const client = clientOf(server);
    const follower = client.followRun(() => client.request('run.submit', submitParams));
    await follower.accepted;
    await client.close();
    expect((await repaErrorOf(collect(follower))).code).toBe('cancelled');
  });
});
