import { RepaError, type RunEventNotification } from '@repa/protocol';
import { encodeFrame } from '@repa/protocol/internal';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { deferred, runInfo } from '../test/builders.js';
import {
  clientOf,
  closeAfterEach,
  errorOf,
  Gates,
  never,
  notification,
  raw,
  start,
  testHandlers,
} from '../test/server-kit.js';
import type { RepaHandler } from './repa-handlers.js';

closeAfterEach();

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
      const error = await repaErrorOf(client.request('run.submit', params));
      expect(error.code).toBe('invalid_request');
      expect(error.message).toContain('`input.text`');
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
      const error = await repaErrorOf(client.request('run.cancel', { runId: 'r1' }));
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
      const error = await repaErrorOf(client.request('run.get', { runId: 'r1' }));
      expect(error.code).toBe('internal');
      expect(error.message).toContain('`run.status` is missing');
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
      expect(() => server.broadcast('run.event', bad)).toThrow(/`seq`/);
    });
  });
});
