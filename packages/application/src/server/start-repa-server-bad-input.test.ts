import { describe, expect, it } from 'vitest';
import { deferred, runInfo } from '../test/builders.js';
import {
  clientOf,
  closeAfterEach,
  errorOf,
  Gates,
  raw,
  start,
  testHandlers,
  whileServingAnother,
} from '../test/server-kit.js';
import type { RepaServerOptions } from './start-repa-server.js';

closeAfterEach();

describe('startRepaServer', () => {
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
});
