import { encodeFrame } from '@repa/protocol/internal';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempAppDirectory } from '../test/builders.js';
import { RawConnection } from '../test/raw-connection.js';
import { type DaemonChild, type DaemonChildOptions, spawnDaemon } from '../test/spawn-daemon.js';

// Every test here writes raw bytes to a daemon in its own process (the built dist), so a crash,
// a stack overflow or unbounded buffering shows up as it would for a real client.

const token = 'a-token-of-24-characters';
const daemons: DaemonChild[] = [];
const connections: RawConnection[] = [];

afterEach(() => {
  for (const connection of connections.splice(0)) connection.destroy();
});
afterAll(() => {
  for (const daemon of daemons.splice(0)) daemon.child.kill('SIGKILL');
});

async function startDaemon(options: DaemonChildOptions = {}): Promise<DaemonChild> {
  const daemon = await spawnDaemon(tempAppDirectory(), 1, options);
  daemons.push(daemon);
  expect(daemon.line).toMatch(/^ready /);
  return daemon;
}

async function open(target: string | { host: string; port: number }): Promise<RawConnection> {
  const connection = await RawConnection.open(target);
  connections.push(connection);
  return connection;
}

/** Hang guard: the promise, or a failure when it has not settled within 20 s. */
function within<T>(promise: Promise<T>, what = 'answer'): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within 20 s`)), 20_000);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

interface ErrorAnswer {
  id: unknown;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** The next message, which must be a JSON-RPC error, as its id and Repa error. */
async function nextError(connection: RawConnection): Promise<ErrorAnswer> {
  return asError(await within(connection.next()));
}

/** A message that must be a JSON-RPC error, as its id and Repa error. */
function asError(received: unknown): ErrorAnswer {
  const message = received as { id: unknown; error?: { data: Omit<ErrorAnswer, 'id'> } };
  expect(message, JSON.stringify(message).slice(0, 300)).toHaveProperty('error');
  return { id: message.id, ...(message.error as { data: Omit<ErrorAnswer, 'id'> }).data };
}

/** Shows the connection still serves: `run.get` is answered with its run. */
async function expectServing(connection: RawConnection, id: number): Promise<void> {
  await connection.request(id, 'run.get', { runId: `r${id}` });
  expect(await within(connection.next())).toMatchObject({
    id,
    result: { run: { runId: `r${id}` } },
  });
}

/** A `run.get` request line whose params also carry `extra` as raw JSON text. */
function runGetWith(id: number, extra: string): string {
  return `{"jsonrpc":"2.0","id":${id},"method":"run.get","params":{"runId":"r1","extra":${extra}}}\n`;
}

describe('the daemon process', () => {
  describe('bad input', () => {
    let daemon: DaemonChild;
    beforeAll(async () => {
      daemon = await startDaemon({ tcp: { port: 0, token } });
    });

    it('refuses a 10⁵-deep array or object with invalid_request naming the depth limit 128 and keeps the connection', async () => {
      const connection = await open(daemon.socketPath);
      await connection.initialize();
      const depth = 100_000;
      await connection.write(runGetWith(1, `${'['.repeat(depth)}${']'.repeat(depth)}`));
      const deepArray = await nextError(connection);
      expect(deepArray).toMatchObject({ code: 'invalid_request', details: { limit: 128 } });
      expect(deepArray.message).toContain('128');
      await connection.write(runGetWith(2, `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`));
      expect(await nextError(connection)).toMatchObject({ code: 'invalid_request' });
      await expectServing(connection, 3);
    });

    it('accepts a message nested exactly 128 deep and refuses one nested 129 deep', async () => {
      const connection = await open(daemon.socketPath);
      await connection.initialize();
      // The message object is level 1 and params level 2, so `extra` adds the rest. Params are
      // closed, so the method refuses `extra` by name: the frame itself passed the depth check.
      await connection.write(runGetWith(1, `${'['.repeat(126)}${']'.repeat(126)}`));
      const accepted = await nextError(connection);
      expect(accepted).toMatchObject({ id: 1, code: 'invalid_request' });
      expect(accepted.message).toContain('extra');
      expect(accepted.details).not.toHaveProperty('limit');
      await connection.write(runGetWith(2, `${'['.repeat(127)}${']'.repeat(127)}`));
      expect(await nextError(connection)).toMatchObject({
        code: 'invalid_request',
        details: { limit: 128 },
      });
    });

    it('refuses invalid UTF-8 inside a string with invalid_request naming its byte offset and keeps the connection', async () => {
      const connection = await open(daemon.socketPath);
      await connection.initialize();
      const before = Buffer.from(
        '{"jsonrpc":"2.0","id":1,"method":"run.get","params":{"runId":"ré',
      );
      await connection.write(Buffer.concat([before, Buffer.from([0xff]), Buffer.from('"}}\n')]));
      const error = await nextError(connection);
      expect(error).toMatchObject({ code: 'invalid_request', details: { offset: before.length } });
      expect(error.message).toMatch(/not valid UTF-8/);
      await expectServing(connection, 2);
    });

    it('refuses __proto__ and constructor keys at any depth with invalid_request naming their path', async () => {
      const connection = await open(daemon.socketPath);
      await connection.initialize();
      await connection.write(runGetWith(1, '{"input":{"__proto__":{"polluted":true}}}'));
      const proto = await nextError(connection);
      expect(proto).toMatchObject({ id: 1, code: 'invalid_request' });
      expect(proto.message).toContain('params.extra.input.__proto__');
      await connection.write(runGetWith(2, '[1,{"constructor":{"prototype":{}}}]'));
      const constructorKey = await nextError(connection);
      expect(constructorKey).toMatchObject({ id: 2, code: 'invalid_request' });
      expect(constructorKey.message).toContain('params.extra.1.constructor');
      await connection.write(
        '{"jsonrpc":"2.0","id":3,"method":"run.get","params":{"runId":"r1"},"__proto__":{}}\n',
      );
      expect((await nextError(connection)).message).toContain('__proto__');
      await expectServing(connection, 4);
    });

    it('answers initialize with no or an empty protocolVersions as invalid params naming the field, listing v1', async () => {
      const connection = await open(daemon.socketPath);
      const offers: [number, unknown][] = [
        [1, {}],
        [2, { protocolVersions: [] }],
        [3, undefined],
      ];
      for (const [id, params] of offers) {
        await connection.request(id, 'initialize', params);
        const message = (await within(connection.next())) as { error: { code: number } };
        // As schema/v1.json says: the field is required and has at least one item.
        expect(message.error.code).toBe(-32602);
        const error = asError(message);
        expect(error).toMatchObject({ id, code: 'invalid_request' });
        expect(error.message).toContain('`protocolVersions`');
        expect(JSON.stringify(error.details)).toContain('params.protocolVersions');
        expect(error.details).toMatchObject({ supported: ['v1'] });
      }
      await connection.initialize();
      await expectServing(connection, 4);
    });

    it('answers a wrong TCP token and a call before auth with unauthorized and closes the connection', async () => {
      const address = daemon.tcpAddress ?? { host: '127.0.0.1', port: 0 };
      const firstFrames = [
        encodeFrame({
          jsonrpc: '2.0',
          method: 'rpc.auth',
          params: { token: 'wrong-token-xxxxxxxx' },
        }),
        encodeFrame({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersions: ['v1'] },
        }),
      ];
      for (const first of firstFrames) {
        const connection = await open(address);
        await connection.write(first);
        const error = await nextError(connection);
        expect(error.code).toBe('unauthorized');
        expect(error.message).toMatch(/token/);
        await within(connection.closed, 'close');
      }
      const authenticated = await open(address);
      await authenticated.write(
        encodeFrame({ jsonrpc: '2.0', method: 'rpc.auth', params: { token } }),
      );
      await authenticated.initialize();
      await expectServing(authenticated, 5);
    });
  });

  describe('bounds', () => {
    it('refuses connections beyond maxConnections with one busy line and keeps serving the others', async () => {
      const daemon = await startDaemon({ maxConnections: 3 });
      const admitted = [
        await open(daemon.socketPath),
        await open(daemon.socketPath),
        await open(daemon.socketPath),
      ];
      for (const connection of admitted) await connection.initialize();
      const refused = await open(daemon.socketPath);
      await refused.request(1, 'initialize', { protocolVersions: ['v1'] });
      const error = await nextError(refused);
      expect(error).toMatchObject({ id: null, code: 'busy', details: { limit: 3 } });
      await within(refused.closed, 'close');
      for (const [index, connection] of admitted.entries()) {
        await expectServing(connection, index + 1);
      }
    });

    it('closes the connection whose unfinished frame passes maxTotalBufferedBytes with message_too_large; the others keep working', async () => {
      const daemon = await startDaemon({
        maxFrameBytes: 64 * 1024,
        maxTotalBufferedBytes: 96 * 1024,
      });
      const a = await open(daemon.socketPath);
      const b = await open(daemon.socketPath);
      await a.initialize();
      await b.initialize();
      // Each half frame fits the frame limit; together they pass the total.
      const head =
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersions":["v1"],"client":{"version":"1","name":"';
      const halfFrame = head + 'a'.repeat(60 * 1024 - head.length);
      await a.write(halfFrame);
      await b.write(halfFrame);
      // Whichever half frame the daemon read second is refused; the other one is kept.
      const [answerOfA, answerOfB] = [a.next(), b.next()];
      const aRefused = await within(
        Promise.race([answerOfA.then(() => true), answerOfB.then(() => false)]),
      );
      const [loser, winner] = aRefused ? [a, b] : [b, a];
      const [refusal, winnerAnswer] = aRefused ? [answerOfA, answerOfB] : [answerOfB, answerOfA];
      expect(await refusal).toMatchObject({
        id: null,
        error: { data: { code: 'message_too_large' } },
      });
      await within(loser.closed, 'close');
      await winner.write('"}}}\n');
      expect(await within(winnerAnswer)).toMatchObject({ id: 1, result: {} });
      await expectServing(winner, 2);
      const third = await open(daemon.socketPath);
      await third.initialize();
      await expectServing(third, 3);
    });
  });
});
