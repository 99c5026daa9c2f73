import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RepaError } from '../errors/repa-error.js';
import {
  runInfo,
  type ScriptedServer,
  startScriptedServer,
  withInitialize,
} from '../test/scripted-server.js';
import type { RunEventNotification } from '../v1/runs.js';
import { createRepaClient, type RepaClient } from './create-repa-client.js';
import { TCP_AUTH_METHOD } from './tcp-auth.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(...args: Parameters<typeof startScriptedServer>): Promise<ScriptedServer> {
  const server = await startScriptedServer(...args);
  cleanups.push(() => server.close());
  return server;
}

function clientOf(server: ScriptedServer, options = {}): RepaClient {
  const client = createRepaClient(server.target, { reconnectDelayMs: 1, ...options });
  cleanups.push(() => client.close());
  return client;
}

async function rejection(promise: Promise<unknown>): Promise<RepaError> {
  try {
    await promise;
  } catch (error) {
    if (RepaError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('createRepaClient', () => {
  describe('connecting', () => {
    it('rejects with daemon_unavailable telling to start the daemon when no socket exists', async () => {
      const socketPath = join(mkdtempSync(join(tmpdir(), 'repa-client-')), 'daemon.sock');
      const client = createRepaClient({ socketPath });
      const error = await rejection(client.request('run.get', { runId: 'r1' }));
      expect(error.code).toBe('daemon_unavailable');
      expect(error.message).toContain(socketPath);
      expect(error.fix).toMatch(/repa daemon start/);
      expect(error.details).toMatchObject({ errno: 'ENOENT' });
    });

    it('rejects with daemon_unavailable when TCP connections are refused', async () => {
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen({ host: '127.0.0.1', port: 0 }, resolve));
      const address = probe.address();
      if (typeof address !== 'object' || address === null) throw new Error('no address');
      await new Promise((resolve) => probe.close(resolve));
      const client = createRepaClient({ host: '127.0.0.1', port: address.port, token: 't' });
      const error = await rejection(client.connect());
      expect(error.code).toBe('daemon_unavailable');
      expect(error.details).toMatchObject({ errno: 'ECONNREFUSED' });
    });

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
      const error = await rejection(clientOf(server).connect());
      expect(error.code).toBe('unsupported_version');
      expect(error.details).toEqual({ supported: ['v2'] });
      expect(server.connections).toHaveLength(1);
    });

    it('opens a TCP connection with the auth frame, then initialize', async () => {
      const server = await serve(withInitialize(), { tcp: { token: 'secret-token-0123456789' } });
      await clientOf(server).connect();
      expect(server.connections[0]?.received.map((m) => [m.method, m.params])).toEqual([
        [TCP_AUTH_METHOD, { token: 'secret-token-0123456789' }],
        ['initialize', { protocolVersions: ['v1'] }],
      ]);
      expect(server.connections[0]?.received[0]).not.toHaveProperty('id');
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
      const error = await rejection(clientOf(server).request('run.get', { runId: 'r1' }));
      expect(error.toWire()).toEqual(sent.toWire());
    });

    it('rejects an invalid result with internal, naming the field', async () => {
      const server = await serve(
        withInitialize((m, c) => c.result(m.id, { run: { ...runInfo(), status: 'dancing' } })),
      );
      const error = await rejection(clientOf(server).request('run.get', { runId: 'r1' }));
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
      expect((await rejection(big)).code).toBe('message_too_large');
      expect((await rejection(waiting)).code).toBe('message_too_large');
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
      const error = await rejection(client.request('run.get', { runId: 'r1' }));
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
      const error = await rejection(client.request('run.list', {}));
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
      server.connections[0]?.destroy();
      await new Promise((resolve) => client.on('disconnect', resolve));
      await client.request('run.list', {});
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
      const pending = rejection(client.request('run.list', {}));
      await client.close();
      expect((await pending).code).toBe('cancelled');
      expect((await rejection(client.request('run.list', {}))).code).toBe('cancelled');
    });
  });
});

function event(
  runEvent: RunEventNotification['event'],
  seq = 1,
): { jsonrpc: '2.0'; method: 'run.event'; params: RunEventNotification } {
  return {
    jsonrpc: '2.0',
    method: 'run.event',
    params: { runId: 'r1', sessionId: 's1', seq, event: runEvent },
  };
}
