import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RepaClient, RepaError, type RunEventNotification } from '@repa/protocol';
import { encodeFrame } from '@repa/protocol/internal';
import { createRepaClient, type RepaClientTarget } from '@repa/protocol/node';
import { afterEach, describe, expect, it } from 'vitest';
import { deferred, runInfo, tempAppDirectory } from '../test/builders.js';
import { RawConnection } from '../test/raw-connection.js';
import type { RepaHandler, RepaHandlers } from './repa-handlers.js';
import { type RepaServer, type RepaServerOptions, startRepaServer } from './start-repa-server.js';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Gates that hold `run.get` for a run id until the test opens them. */
class Gates {
  readonly #gates = new Map<string, ReturnType<typeof deferred<void>>>();
  wait(runId: string): Promise<void> {
    return this.#gate(runId).promise;
  }
  open(runId: string): void {
    this.#gate(runId).resolve();
  }
  #gate(runId: string): ReturnType<typeof deferred<void>> {
    let gate = this.#gates.get(runId);
    if (!gate) {
      gate = deferred();
      this.#gates.set(runId, gate);
    }
    return gate;
  }
}

/** Handlers written for these tests: `run.get` waits for its gate when the id starts with `slow`. */
function testHandlers(gates: Gates, extra: RepaHandlers = {}): RepaHandlers {
  return {
    'run.get': async ({ runId }) => {
      if (runId.startsWith('slow')) await gates.wait(runId);
      return { run: runInfo({ runId }) };
    },
    'run.list': async () => ({ runs: [] }),
    'run.subscribe': async ({ runId }) => ({ run: runInfo({ runId }) }),
    ...extra,
  };
}

async function start(options: Partial<RepaServerOptions> = {}): Promise<RepaServer> {
  const server = await startRepaServer({
    appDirectory: tempAppDirectory(),
    handlers: testHandlers(new Gates()),
    ...options,
  });
  cleanups.push(() => server.close({ graceMs: 0 }));
  return server;
}

function clientOf(target: RepaServer | RepaClientTarget): RepaClient {
  const client = createRepaClient(
    'socketPath' in target ? { socketPath: target.socketPath } : target,
    {
      reconnectDelayMs: 10,
    },
  );
  cleanups.push(() => client.close());
  return client;
}

async function raw(server: RepaServer): Promise<RawConnection> {
  const connection = await RawConnection.open(server.socketPath);
  cleanups.push(() => connection.destroy());
  return connection;
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

/**
 * Runs `badInput` while another client has a request in flight, then shows that request and a new
 * one are still answered: the server kept serving the other client.
 */
async function whileServingAnother(
  server: RepaServer,
  gates: Gates,
  badInput: () => Promise<void>,
) {
  const witness = clientOf(server);
  const runId = `slow-${Math.random()}`;
  const inFlight = witness.request('run.get', { runId });
  inFlight.catch(() => {}); // Awaited below; a failed assertion must not leave it unhandled.
  await badInput();
  gates.open(runId);
  expect((await inFlight).run.runId).toBe(runId);
  expect(await witness.request('run.list', {})).toEqual({ runs: [] });
}

function errorOf(message: unknown): { id: unknown; code: string; message: string } {
  const { id, error } = message as {
    id: unknown;
    error: { data: { code: string; message: string } };
  };
  return { id, code: error.data.code, message: error.data.message };
}

describe('startRepaServer', () => {
  describe('requests', () => {
    it('answers typed round trips through createRepaClient', async () => {
      const server = await start({ serverInfo: { name: 'repa-test', version: '9.9.9' } });
      const client = clientOf(server);
      expect(await client.connect()).toEqual({
        protocolVersion: 'v1',
        server: { name: 'repa-test', version: '9.9.9' },
      });
      const { run } = await client.request('run.get', { runId: 'r7' });
      expect(run).toEqual(runInfo({ runId: 'r7' }));
    });

    it('answers each request when it is done, not in arrival order', async () => {
      const gates = new Gates();
      const server = await start({ handlers: testHandlers(gates) });
      const client = clientOf(server);
      const order: string[] = [];
      const slow = client.request('run.get', { runId: 'slow-1' }).then(() => order.push('slow'));
      await client.request('run.list', {}).then(() => order.push('fast'));
      gates.open('slow-1');
      await slow;
      expect(order).toEqual(['fast', 'slow']);
    });

    it('refuses invalid params with invalid_request naming the field path', async () => {
      const client = clientOf(await start({ handlers: { 'run.submit': async () => never() } }));
      const params = {
        space: '/s',
        sessionId: 's1',
        requestId: 'q1',
        input: { type: 'text' as const, text: '' },
      };
      const error = await rejection(client.request('run.submit', params));
      expect(error.code).toBe('invalid_request');
      expect(error.message).toContain('params.input.text');
      expect(error.details).toMatchObject({ issues: [{ path: 'params.input.text' }] });
    });

    it('answers method_not_found for unknown methods and methods without a handler', async () => {
      const connection = await raw(await start());
      await connection.initialize();
      for (const [id, method] of [
        [1, 'no.such'],
        [2, 'toString'],
        [3, '__proto__'],
        [4, 'session.create'],
      ] as const) {
        await connection.request(id, method, {});
        expect(errorOf(await connection.next())).toMatchObject({ id, code: 'method_not_found' });
      }
    });

    it('refuses initialize without v1 with unsupported_version listing ["v1"]', async () => {
      const connection = await raw(await start());
      await connection.request(1, 'initialize', { protocolVersions: ['v0', 'v2'] });
      const answer = (await connection.next()) as { error: { data: { details: unknown } } };
      expect(errorOf(answer)).toMatchObject({ id: 1, code: 'unsupported_version' });
      expect(answer.error.data.details).toEqual({ supported: ['v1'], requested: ['v0', 'v2'] });
    });

    it('refuses other calls before initialize with not_initialized', async () => {
      const connection = await raw(await start());
      await connection.request(1, 'run.list', {});
      const error = errorOf(await connection.next());
      expect(error).toMatchObject({ id: 1, code: 'not_initialized' });
      expect(error.message).toMatch(/initialize/);
      await connection.initialize();
      await connection.request(2, 'run.list', {});
      expect(await connection.next()).toEqual({ jsonrpc: '2.0', id: 2, result: { runs: [] } });
    });

    it('passes a handler’s RepaError through unchanged', async () => {
      const thrown = new RepaError('busy', 'session s1 has an active run', {
        fix: 'wait for r0',
        details: { runId: 'r0' },
      });
      const client = clientOf(
        await start({
          handlers: {
            'run.cancel': async () => {
              throw thrown;
            },
          },
        }),
      );
      const error = await rejection(client.request('run.cancel', { runId: 'r1' }));
      expect(error.toWire()).toEqual(thrown.toWire());
    });

    it('answers other errors, thrown or synchronous, as internal without a stack', async () => {
      const reported: unknown[] = [];
      const syncThrow = (() => {
        throw new TypeError('sync boom');
      }) as RepaHandler<'run.cancel'>;
      const server = await start({
        handlers: {
          'run.cancel': syncThrow,
          'run.retry': async () => {
            throw new Error('async boom');
          },
        },
        onError: (error) => reported.push(error),
      });
      const connection = await raw(server);
      await connection.initialize();
      await connection.request(1, 'run.cancel', { runId: 'r1' });
      await connection.request(2, 'run.retry', { runId: 'r1', requestId: 'q2' });
      const answers = [await connection.next(), await connection.next()];
      for (const answer of answers) {
        expect(errorOf(answer).code).toBe('internal');
        expect(JSON.stringify(answer)).not.toMatch(/\bat .*\.ts:\d+/);
      }
      expect(answers.map((answer) => errorOf(answer).message).sort()).toEqual([
        'Internal error while handling run.cancel: sync boom',
        'Internal error while handling run.retry: async boom',
      ]);
      expect(reported).toHaveLength(2);
    });

    it('answers internal when a handler returns an invalid result', async () => {
      const bad = (async () => ({ run: { runId: 'r1' } })) as unknown as RepaHandler<'run.get'>;
      const client = clientOf(await start({ handlers: { 'run.get': bad } }));
      const error = await rejection(client.request('run.get', { runId: 'r1' }));
      expect(error.code).toBe('internal');
      expect(error.message).toContain('result.run.status');
    });

    it('ignores notifications from clients', async () => {
      const connection = await raw(await start());
      await connection.initialize();
      await connection.write(encodeFrame({ jsonrpc: '2.0', method: 'run.list', params: {} }));
      await connection.write(encodeFrame({ jsonrpc: '2.0', method: 'no.such' }));
      await connection.request(1, 'run.list', {});
      expect(await connection.next()).toMatchObject({ id: 1, result: { runs: [] } });
    });
  });

  describe('bad input', () => {
    async function setup(options: Partial<RepaServerOptions> = {}) {
      const gates = new Gates();
      const server = await start({ handlers: testHandlers(gates), ...options });
      return { gates, server };
    }

    it('answers malformed JSON with invalid_request and id null, and keeps the connection', async () => {
      const { gates, server } = await setup();
      await whileServingAnother(server, gates, async () => {
        const connection = await raw(server);
        await connection.write('{"jsonrpc":"2.0","id":1,\n');
        expect(errorOf(await connection.next())).toMatchObject({
          id: null,
          code: 'invalid_request',
        });
        await connection.initialize();
        await connection.request(2, 'run.list', {});
        expect(await connection.next()).toMatchObject({ id: 2, result: { runs: [] } });
      });
    });

    it('answers a message that is not a JSON-RPC request with invalid_request', async () => {
      const { gates, server } = await setup();
      await whileServingAnother(server, gates, async () => {
        const connection = await raw(server);
        await connection.write('{"id":7,"method":5}\n[1,2]\n"text"\n');
        // Answers come in any order; [1,2] is a batch of two invalid requests (JSON-RPC 2.0 §6).
        const answers = [await connection.next(), await connection.next(), await connection.next()];
        const batch = answers.find(Array.isArray) as unknown[];
        const single = answers.filter((answer) => !Array.isArray(answer)).map(errorOf);
        expect(single).toContainEqual(expect.objectContaining({ id: 7, code: 'invalid_request' }));
        expect(single).toContainEqual(
          expect.objectContaining({ id: null, code: 'invalid_request' }),
        );
        expect(batch.map(errorOf)).toMatchObject([
          { id: null, code: 'invalid_request' },
          { id: null, code: 'invalid_request' },
        ]);
      });
    });

    it('answers an oversized frame with message_too_large, closes only that connection and never buffers past the limit', async () => {
      const maxFrameBytes = 64 * 1024;
      const { gates, server } = await setup({ maxFrameBytes });
      await whileServingAnother(server, gates, async () => {
        const connection = await raw(server);
        await connection.initialize();
        await connection.write('{"jsonrpc":"2.0","id":1,"method":"run.list","params":{"pad":"');
        const chunk = Buffer.alloc(16 * 1024, 'a');
        for (let sent = 0; sent < 3 * maxFrameBytes && !connection.isClosed; sent += chunk.length) {
          await connection.write(chunk);
        }
        const error = errorOf(await connection.next());
        expect(error).toMatchObject({ id: null, code: 'message_too_large' });
        await connection.closed;
      });
      expect(server.stats.peakPendingFrameBytes).toBeGreaterThan(0);
      expect(server.stats.peakPendingFrameBytes).toBeLessThanOrEqual(maxFrameBytes);
    });

    describe('half frames of many connections', () => {
      const head = '{"jsonrpc":"2.0","id":1,"method":"run.get","params":{"runId":"';
      const halfFrame = (bytes: number) => Buffer.from(head + 'a'.repeat(bytes - head.length));

      it('holds at most maxTotalBufferedBytes across 16 connections and refuses the rest with message_too_large', async () => {
        const maxTotalBufferedBytes = 1024 * 1024;
        const { gates, server } = await setup({ maxTotalBufferedBytes });
        await whileServingAnother(server, gates, async () => {
          const connections = await Promise.all(Array.from({ length: 16 }, () => raw(server)));
          await Promise.all(connections.map((connection) => connection.initialize()));
          await Promise.all(connections.map((connection) => connection.write(halfFrame(320_000))));
          // Each connection gets one message: the refusal, or the answer once its frame ends.
          await Promise.all(connections.map((connection) => connection.write('"}}\n')));
          const messages = await Promise.all(connections.map((connection) => connection.next()));
          const answered = messages.filter((message) => (message as { id: unknown }).id === 1);
          const refused = messages.filter((message) => (message as { id: unknown }).id === null);
          // At most 3 half frames of 320 000 bytes fit in 1 MiB at once; one refused frees room for
          // another whose bytes the daemon had not read yet.
          expect(answered.length).toBeGreaterThanOrEqual(1);
          expect(refused.length).toBeGreaterThanOrEqual(1);
          expect(refused.length).toBe(16 - answered.length);
          // (An answer to the whole frame: run.get refuses a run id that long.)
          for (const message of answered) expect(errorOf(message).code).toBe('invalid_request');
          for (const message of refused) {
            expect(message).toMatchObject({
              error: { data: { code: 'message_too_large', details: { scope: 'all-connections' } } },
            });
          }
        });
        expect(server.stats.peakBufferedBytes).toBeGreaterThanOrEqual(320_000);
        expect(server.stats.peakBufferedBytes).toBeLessThanOrEqual(1024 * 1024);
      });

      it('reads no more of a connection it refused: the rest of its frame is never taken in', async () => {
        const { gates, server } = await setup({
          maxFrameBytes: 16 * 1024 * 1024,
          maxTotalBufferedBytes: 256 * 1024,
        });
        await whileServingAnother(server, gates, async () => {
          const holder = await raw(server);
          await holder.initialize();
          await holder.write(halfFrame(200 * 1024));
          const refused = await raw(server);
          // 12 MiB is far more than the kernel buffers of a socket hold: the write completes only
          // if the daemon reads it all.
          const written = refused.write(halfFrame(12 * 1024 * 1024));
          expect(errorOf(await refused.next())).toMatchObject({ code: 'message_too_large' });
          await refused.closed;
          expect(await written).toBeInstanceOf(Error);
          await holder.write('"}}\n');
          expect(errorOf(await holder.next())).toMatchObject({ id: 1, code: 'invalid_request' });
        });
      });
    });

    it('closes a connection stalled in a half frame after the idle timeout', async () => {
      const { gates, server } = await setup({ idleTimeoutMs: 100 });
      await whileServingAnother(server, gates, async () => {
        const connection = await raw(server);
        await connection.write('{"jsonrpc":"2.0","id":1,"meth');
        await connection.closed;
      });
    });

    it('keeps an idle connection open while one of its requests is running', async () => {
      const gates = new Gates();
      const server = await start({ handlers: testHandlers(gates), idleTimeoutMs: 100 });
      const client = clientOf(server);
      const slow = client.request('run.get', { runId: 'slow-idle' });
      await new Promise((resolve) => setTimeout(resolve, 400));
      gates.open('slow-idle');
      expect((await slow).run.runId).toBe('slow-idle');
    });

    it('finishes a request whose client disconnected and tells the handler the connection closed', async () => {
      const gates = new Gates();
      const closedConnections: string[] = [];
      const handlerDone = deferred<string>();
      const server = await start({
        handlers: testHandlers(gates, {
          'run.cancel': async ({ runId }, context) => {
            context.onClose(() => closedConnections.push(context.connectionId));
            await gates.wait(runId);
            handlerDone.resolve(context.connectionId);
            return { run: runInfo({ runId }) };
          },
        }),
      });
      await whileServingAnother(server, gates, async () => {
        const connection = await raw(server);
        await connection.initialize();
        await connection.request(1, 'run.cancel', { runId: 'gone' });
        while (server.stats.connections < 2) await new Promise((resolve) => setImmediate(resolve));
        connection.destroy();
        while (server.stats.connections > 1) await new Promise((resolve) => setImmediate(resolve));
        gates.open('gone');
        const connectionId = await handlerDone.promise;
        expect(closedConnections).toEqual([connectionId]);
      });
    });
  });

  describe('notifications', () => {
    it('delivers run.event through context.notify, notifyConnection and broadcast', async () => {
      const events: RunEventNotification[] = [];
      let subscriber = '';
      const server = await start({
        handlers: {
          'run.subscribe': async ({ runId }, context) => {
            subscriber = context.connectionId;
            setImmediate(() => context.notify('run.event', notification(runId, 1)));
            return { run: runInfo({ runId }) };
          },
        },
      });
      const client = clientOf(server);
      const third = deferred();
      client.on('run.event', (params) => {
        events.push(params);
        if (events.length === 3) third.resolve();
      });
      await client.request('run.subscribe', { runId: 'r1' });
      expect(server.notifyConnection(subscriber, 'run.event', notification('r1', 2))).toBe(true);
      expect(server.notifyConnection('unix-999', 'run.event', notification('r1', 9))).toBe(false);
      const notInitialized = await raw(server);
      while (server.stats.connections < 2) await new Promise((resolve) => setImmediate(resolve));
      expect(server.broadcast('run.event', notification('r1', 3))).toBe(1);
      await third.promise;
      expect(events.map((event) => event.seq)).toEqual([1, 2, 3]);
      notInitialized.destroy();
    });

    it('refuses to send a notification whose params do not match its schema', async () => {
      const server = await start();
      const client = clientOf(server);
      await client.connect();
      const bad = { ...notification('r1', 1), seq: 0 };
      expect(() => server.broadcast('run.event', bad)).toThrow(/params\.seq/);
    });
  });

  describe('socket', () => {
    it('creates the run directory with mode 0700 and tightens a looser one', async () => {
      const fresh = await start();
      expect(statSync(join(fresh.socketPath, '..')).mode & 0o777).toBe(0o700);

      const appDirectory = tempAppDirectory();
      mkdirSync(join(appDirectory, 'run'), { mode: 0o755 });
      const loose = await start({ appDirectory });
      expect(loose.socketPath).toBe(join(appDirectory, 'run', 'daemon.sock'));
      expect(statSync(join(appDirectory, 'run')).mode & 0o777).toBe(0o700);
    });

    it('refuses a second server on the same app directory and leaves the first serving', async () => {
      const first = await start();
      const appDirectory = join(first.socketPath, '..', '..');
      const error = await rejection(startRepaServer({ appDirectory, handlers: {} }));
      expect(error.code).toBe('daemon_already_running');
      expect(error.details).toMatchObject({ pid: process.pid });
      expect(await clientOf(first).request('run.list', {})).toEqual({ runs: [] });
    });

    it('replaces a stale socket left by a killed process', async () => {
      const appDirectory = tempAppDirectory();
      const socketPath = join(appDirectory, 'run', 'daemon.sock');
      mkdirSync(join(appDirectory, 'run'), { mode: 0o700 });
      await killedListener(socketPath);
      expect(existsSync(socketPath)).toBe(true);
      const server = await start({ appDirectory });
      expect(await clientOf(server).request('run.list', {})).toEqual({ runs: [] });
    });

    it('recovers a start lock left by a dead process', async () => {
      const appDirectory = tempAppDirectory();
      mkdirSync(join(appDirectory, 'run'), { mode: 0o700 });
      writeFileSync(join(appDirectory, 'run', 'daemon.lock'), `${await deadPid()}\n`);
      const server = await start({ appDirectory });
      expect(existsSync(join(appDirectory, 'run', 'daemon.lock'))).toBe(false);
      expect(await clientOf(server).request('run.list', {})).toEqual({ runs: [] });
    });

    it('refuses to replace a file that is not a socket', async () => {
      const appDirectory = tempAppDirectory();
      mkdirSync(join(appDirectory, 'run'), { mode: 0o700 });
      writeFileSync(join(appDirectory, 'run', 'daemon.sock'), 'not a socket');
      const error = await rejection(start({ appDirectory }));
      expect(error.code).toBe('io_error');
    });
  });

  describe('tcp', () => {
    const token = 'a-token-of-24-characters';

    it('listens on 127.0.0.1 only and serves a client that presents the token', async () => {
      const server = await start({ tcp: { port: 0, token } });
      expect(server.tcpAddress?.host).toBe('127.0.0.1');
      const port = server.tcpAddress?.port ?? 0;
      expect(port).toBeGreaterThan(0);
      const client = clientOf({ host: '127.0.0.1', port, token });
      expect((await client.request('run.get', { runId: 'r1' })).run.runId).toBe('r1');
    });

    it('closes a connection whose first frame is not the auth frame with the right token: unauthorized for a request, invalid_request for garbage', async () => {
      const server = await start({ tcp: { port: 0, token } });
      const address = server.tcpAddress ?? { host: '127.0.0.1', port: 0 };
      const firstFrames = [
        [
          encodeFrame({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersions: ['v1'] },
          }),
          'unauthorized',
        ],
        [
          encodeFrame({
            jsonrpc: '2.0',
            method: 'rpc.auth',
            params: { token: 'wrong-token-xxxxxxxxxxx' },
          }),
          'unauthorized',
        ],
        ['POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 'invalid_request'],
      ] as const;
      for (const [first, code] of firstFrames) {
        const connection = await RawConnection.open(address);
        cleanups.push(() => connection.destroy());
        await connection.write(first);
        expect(errorOf(await connection.next()).code).toBe(code);
        await connection.closed;
      }
      const error = await rejection(
        clientOf({ ...address, token: 'wrong-token-xxxxxxxxxxx' }).connect(),
      );
      expect(error.code).toBe('unauthorized');
    });

    it('refuses a token shorter than 16 characters', async () => {
      const error = await rejection(start({ tcp: { port: 0, token: 'short' } }));
      expect(error.code).toBe('invalid_request');
    });
  });

  describe('close', () => {
    it('waits for a request in flight, then closes connections and removes the socket', async () => {
      const gates = new Gates();
      const server = await start({ handlers: testHandlers(gates) });
      const client = clientOf(server);
      const order: string[] = [];
      const answered = client
        .request('run.get', { runId: 'slow-close' })
        .then(() => order.push('answered'));
      await client.request('run.list', {}); // The slow request has reached the server.
      const closed = server.close({ graceMs: 60_000 }).then(() => order.push('closed'));
      await new Promise((resolve) => setImmediate(resolve));
      const refused = await rejection(client.request('run.list', {}));
      expect(refused.code).toBe('daemon_unavailable');
      gates.open('slow-close');
      await Promise.all([answered, closed]);
      expect(order).toEqual(['answered', 'closed']);
      expect(existsSync(server.socketPath)).toBe(false);
      expect(existsSync(join(server.socketPath, '..', 'daemon.pid'))).toBe(false);
    });

    it('cuts requests still running after the grace period', async () => {
      const server = await start({ handlers: testHandlers(new Gates()) });
      const client = clientOf(server);
      await client.connect();
      const stuck = rejection(client.request('run.get', { runId: 'slow-forever' }));
      await client.request('run.list', {});
      await server.close({ graceMs: 10 });
      expect((await stuck).code).toBe('daemon_unavailable');
      expect(server.stats.connections).toBe(0);
    });
  });

  describe('reconnect', () => {
    it('lets the client reconnect after a restart and re-subscribe to its runs', async () => {
      const appDirectory = tempAppDirectory();
      const subscribed: string[] = [];
      const handlers = (generation: number): RepaHandlers => ({
        'run.list': async () => ({ runs: [] }),
        'run.subscribe': async ({ runId }, context) => {
          subscribed.push(`${generation}:${runId}`);
          setImmediate(() => context.notify('run.event', notification(runId, generation)));
          return { run: runInfo({ runId }) };
        },
      });
      const first = await startRepaServer({ appDirectory, handlers: handlers(1) });
      const client = clientOf({ socketPath: first.socketPath });
      const seqs: number[] = [];
      const second = deferred();
      client.on('run.event', (params) => {
        seqs.push(params.seq);
        if (params.seq === 2) second.resolve();
      });
      await client.request('run.subscribe', { runId: 'r1' });
      const dropped = new Promise((resolve) => client.on('disconnect', resolve));
      await first.close();
      await dropped;

      const restarted = await start({ appDirectory, handlers: handlers(2) });
      expect(await client.request('run.list', {})).toEqual({ runs: [] });
      await second.promise;
      expect(subscribed).toEqual(['1:r1', '2:r1']);
      expect(seqs).toEqual([1, 2]);
      expect(restarted.socketPath).toBe(first.socketPath);
    });
  });
});

function notification(runId: string, seq: number): RunEventNotification {
  return { runId, sessionId: 's1', seq, event: { type: 'text-delta', delta: `part ${seq}` } };
}

function never(): never {
  throw new Error('not called');
}

/** Starts a plain listener on `socketPath` in another process and SIGKILLs it: a stale socket. */
async function killedListener(socketPath: string): Promise<void> {
  const script = `require('node:net').createServer().listen(${JSON.stringify(socketPath)}, () => console.log('ready'))`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve) => child.stdout.once('data', resolve));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid ?? 2 ** 22 + 1;
}
