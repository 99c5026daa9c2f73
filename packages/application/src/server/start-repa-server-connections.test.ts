import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeFrame } from '@repa/protocol/internal';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { deferred, runInfo, tempAppDirectory } from '../test/builders.js';
import { RawConnection } from '../test/raw-connection.js';
import {
  cleanups,
  clientOf,
  closeAfterEach,
  deadPid,
  errorOf,
  Gates,
  killedListener,
  notification,
  start,
  testHandlers,
} from '../test/server-kit.js';
import type { RepaHandlers } from './repa-handlers.js';
import { startRepaServer } from './start-repa-server.js';

closeAfterEach();

describe('startRepaServer', () => {
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
      const error = await repaErrorOf(startRepaServer({ appDirectory, handlers: {} }));
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
      const error = await repaErrorOf(start({ appDirectory }));
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
      const error = await repaErrorOf(
        clientOf({ ...address, token: 'wrong-token-xxxxxxxxxxx' }).connect(),
      );
      expect(error.code).toBe('unauthorized');
    });

    it('refuses a token shorter than 16 characters', async () => {
      const error = await repaErrorOf(start({ tcp: { port: 0, token: 'short' } }));
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
      const refused = await repaErrorOf(client.request('run.list', {}));
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
      const stuck = repaErrorOf(client.request('run.get', { runId: 'slow-forever' }));
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
