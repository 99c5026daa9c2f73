import { describe, expect, it } from 'vitest';
import {
  event,
  repaErrorOf,
  runInfo,
  type ScriptedServer,
  useScriptedServers,
  withInitialize,
} from '../test/scripted-server.js';
import { RepaError } from '../v1/errors/repa-error.js';
import type { RunEventNotification } from '../v1/wire-types.generated.js';

const { serve, clientOf } = useScriptedServers();

/**
 * Drops the client's first connection, waits until it saw the drop, and asks `run.list`: the client
 * connects again, what it re-sends on the new connection first (its second) arrives before the list.
 */
async function reconnectWithRunList(
  server: ScriptedServer,
  client: ReturnType<typeof clientOf>,
): Promise<void> {
  server.connections[0]?.destroy();
  await new Promise((resolve) => client.on('disconnect', resolve));
  await client.request('run.list', {});
}

describe('createRepaClient', () => {
  describe('connecting', () => {
    it('initializes with v1 and the client info before the first request', async () => {
      const server = await serve(withInitialize((m, c) => c.result(m.id, { run: runInfo() })));
      const client = clientOf(server, { client: { name: 'cli', version: '2' } });
      await client.request('run.get', { runId: 'r1' });
      expect(server.connections[0]?.received.map((m) => [m.method, m.params])).toEqual([
        ['initialize', { protocolVersions: ['v1'], client: { name: 'cli', version: '2' } }],
        ['run.get', { runId: 'r1' }],
      ]);
    });

    it('rejects with the server’s unsupported_version and does not retry', async () => {
      const server = await serve((m, c) =>
        c.error(
          m.id,
          new RepaError('unsupported_version', 'no', { details: { supported: ['v2'] } }),
        ),
      );
      const error = await repaErrorOf(clientOf(server).connect());
      expect(error.code).toBe('unsupported_version');
      expect(error.details).toEqual({ supported: ['v2'] });
      expect(server.connections).toHaveLength(1);
    });
  });

  describe('requests', () => {
    it('matches responses to requests by id when they arrive out of order', async () => {
      const held: { id: unknown; runId: string }[] = [];
      const server = await serve(
        withInitialize((m, c) => {
          held.push({ id: m.id, runId: (m.params as { runId: string }).runId });
          if (held.length === 2) {
            for (const { id, runId } of held.reverse())
              c.result(id as number, { run: runInfo({ runId }) });
          }
        }),
      );
      const client = clientOf(server);
      const [first, second] = await Promise.all([
        client.request('run.get', { runId: 'a' }),
        client.request('run.get', { runId: 'b' }),
      ]);
      expect(first.run.runId).toBe('a');
      expect(second.run.runId).toBe('b');
    });

    it('rejects with the RepaError the server sent, unchanged', async () => {
      const sent = new RepaError('busy', 'session s1 has an active run', {
        fix: 'wait for r0',
        details: { runId: 'r0' },
      });
      const server = await serve(withInitialize((m, c) => c.error(m.id, sent)));
      const error = await repaErrorOf(clientOf(server).request('run.get', { runId: 'r1' }));
      expect(error.toWire()).toEqual(sent.toWire());
    });

    it('rejects an invalid result with internal, naming the field', async () => {
      const server = await serve(
        withInitialize((m, c) => c.result(m.id, { run: { ...runInfo(), status: 'dancing' } })),
      );
      const error = await repaErrorOf(clientOf(server).request('run.get', { runId: 'r1' }));
      expect(error.code).toBe('internal');
      expect(error.message).toContain('result.run.status');
    });

    it('rejects every pending request with an error the server sent with id null', async () => {
      const server = await serve(
        withInitialize((m, c) => {
          if (m.params && (m.params as { runId: string }).runId === 'big') {
            c.error(null, new RepaError('message_too_large', 'too big'));
            c.destroy();
          }
        }),
      );
      const client = clientOf(server);
      await client.connect();
      const waiting = client.request('run.get', { runId: 'small' });
      const big = client.request('run.get', { runId: 'big' });
      expect((await repaErrorOf(big)).code).toBe('message_too_large');
      expect((await repaErrorOf(waiting)).code).toBe('message_too_large');
    });
  });

  describe('reconnecting', () => {
    it('rejects pending requests with daemon_unavailable, then reconnects and re-subscribes', async () => {
      const server = await serve(
        withInitialize((m, c) => {
          if (m.method === 'run.subscribe') c.result(m.id, { run: runInfo() });
          if (m.method === 'run.get') c.destroy(); // Crash while handling.
          if (m.method === 'run.list') c.result(m.id, { runs: [] });
        }),
      );
      const client = clientOf(server);
      const disconnects: string[] = [];
      client.on('disconnect', (error) => disconnects.push(error.code));
      await client.request('run.subscribe', { runId: 'r1' });
      const error = await repaErrorOf(client.request('run.get', { runId: 'r1' }));
      expect(error.code).toBe('daemon_unavailable');
      expect(disconnects).toEqual(['daemon_unavailable']);

      await client.request('run.list', {});
      expect(server.connections).toHaveLength(2);
      expect(server.connections[1]?.received.map((m) => [m.method, m.params])).toEqual([
        ['initialize', { protocolVersions: ['v1'] }],
        ['run.subscribe', { runId: 'r1' }],
        ['run.list', {}],
      ]);
    });

    it('gives up after reconnectAttempts tries with daemon_unavailable', async () => {
      let accept = true;
      const server = await serve((m, c) => {
        if (accept) withInitialize()(m, c);
        else c.destroy();
      });
      const client = clientOf(server, { reconnectAttempts: 3 });
      await client.connect();
      accept = false;
      const dropped = new Promise((resolve) => client.on('disconnect', resolve));
      server.connections[0]?.destroy();
      await dropped;
      const error = await repaErrorOf(client.request('run.list', {}));
      expect(error.code).toBe('daemon_unavailable');
      expect(server.connections).toHaveLength(1 + 3);
    });

    it('stops re-subscribing to a run once it ended', async () => {
      const server = await serve(
        withInitialize((m, c) => {
          if (m.method === 'run.subscribe') {
            c.result(m.id, { run: runInfo() });
            c.send(event({ type: 'status', status: 'succeeded' }));
          }
          if (m.method === 'run.list') c.result(m.id, { runs: [] });
        }),
      );
      const client = clientOf(server);
      const ended = new Promise((resolve) => client.on('run.event', resolve));
      await client.request('run.subscribe', { runId: 'r1' });
      await ended;
      await reconnectWithRunList(server, client);
      expect(server.connections[1]?.received.map((m) => m.method)).toEqual([
        'initialize',
        'run.list',
      ]);
    });
  });

  describe('reconnecting by itself (reconnect: always)', () => {
    it('connects again at once after a drop, saying disconnect then connect', async () => {
      const server = await serve(withInitialize());
      const client = clientOf(server, { reconnect: 'always' });
      const seen: string[] = [];
      client.on('connect', (info) => seen.push(`connect ${info.server.name}`));
      client.on('disconnect', (error) => seen.push(`disconnect ${error.code}`));
      await client.connect();
      const again = new Promise((resolve) => {
        const off = client.on('connect', () => resolve(off()));
      });
      server.connections[0]?.destroy();
      await again;
      expect(seen).toEqual([
        'connect scripted',
        'disconnect daemon_unavailable',
        'connect scripted',
      ]);
      expect(server.connections).toHaveLength(2);
    });

    it('keeps trying a first connection the daemon drops until one succeeds', async () => {
      const server = await serve((m, c) => {
        if (server.connections.length < 4) c.destroy();
        else withInitialize()(m, c);
      });
      const client = clientOf(server, { reconnect: 'always', reconnectMaxDelayMs: 2 });
      expect((await client.connect()).protocolVersion).toBe('v1');
      expect(server.connections).toHaveLength(4);
    });
  });

  describe('subscriptions', () => {
    it('re-subscribes after a reconnect to the runs it submitted, retried and resumed', async () => {
      const server = await serve(
        withInitialize((m, c) => {
          const runId = (m.params as { requestId?: string }).requestId ?? 'other';
          if (m.method === 'run.submit')
            c.result(m.id, { run: runInfo({ runId }), resubmitted: false });
          if (m.method === 'run.retry' || m.method === 'run.resume')
            c.result(m.id, { run: runInfo({ runId }), resubmitted: false });
          if (m.method === 'run.subscribe') c.result(m.id, { run: runInfo() });
          if (m.method === 'run.list') c.result(m.id, { runs: [] });
        }),
      );
      const client = clientOf(server);
      const input = { type: 'text' as const, text: 'hi' };
      await client.request('run.submit', { space: '/s', sessionId: 's1', requestId: 'a', input });
      await client.request('run.retry', { runId: 'a', requestId: 'b' });
      await client.request('run.resume', { runId: 'a', requestId: 'c' });
      await reconnectWithRunList(server, client);
      expect(
        server.connections[1]?.received.filter((m) => m.method === 'run.subscribe'),
      ).toMatchObject([
        { params: { runId: 'a' } },
        { params: { runId: 'b' } },
        { params: { runId: 'c' } },
      ]);
    });

    it('does not re-subscribe to a submitted run that had already ended in its answer', async () => {
      const server = await serve(
        withInitialize((m, c) => {
          if (m.method === 'run.submit')
            c.result(m.id, { run: runInfo({ status: 'succeeded' }), resubmitted: true });
          if (m.method === 'run.list') c.result(m.id, { runs: [] });
        }),
      );
      const client = clientOf(server);
      const input = { type: 'text' as const, text: 'hi' };
      await client.request('run.submit', { space: '/s', sessionId: 's1', requestId: 'q1', input });
      await reconnectWithRunList(server, client);
      expect(server.connections[1]?.received.map((m) => m.method)).toEqual([
        'initialize',
        'run.list',
      ]);
    });
  });

  describe('notifications', () => {
    it('delivers valid run.event notifications to listeners until they unsubscribe', async () => {
      const server = await serve(withInitialize((m, c) => c.result(m.id, { runs: [] })));
      const client = clientOf(server);
      const seen: RunEventNotification[] = [];
      const off = client.on('run.event', (params) => seen.push(params));
      await client.connect();
      const connection = server.connections[0];
      connection?.send(event({ type: 'text-delta', delta: 'Hi' }, 1));
      connection?.send({ jsonrpc: '2.0', method: 'run.event', params: { runId: 'r1' } });
      connection?.send({ jsonrpc: '2.0', method: 'future.thing', params: {} });
      await client.request('run.list', {}); // Answered after the notifications above.
      off();
      connection?.send(event({ type: 'text-delta', delta: 'later' }, 2));
      await client.request('run.list', {});
      expect(seen).toEqual([event({ type: 'text-delta', delta: 'Hi' }, 1).params]);
    });
  });

  describe('close', () => {
    it('rejects pending and later calls with cancelled', async () => {
      const server = await serve(withInitialize());
      const client = clientOf(server);
      await client.connect();
      const pending = repaErrorOf(client.request('run.list', {}));
      await client.close();
      expect((await pending).code).toBe('cancelled');
      expect((await repaErrorOf(client.request('run.list', {}))).code).toBe('cancelled');
    });
  });
});
