// JSON-RPC 2.0 error codes and batches (§5.1, §6) over a real socket with raw frames.
import { RepaError } from '@repa/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { runInfo, tempAppDirectory } from '../test/builders.js';
import { RawConnection } from '../test/raw-connection.js';
import { type RepaServer, startRepaServer } from './start-repa-server.js';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function connect(): Promise<RawConnection> {
  const server: RepaServer = await startRepaServer({
    appDirectory: tempAppDirectory(),
    handlers: {
      'run.get': async ({ runId }) => {
        // A refusal the handler decides (not the schema), as a too-long body or a blank title is.
        if (runId === 'refused') throw new RepaError('invalid_request', 'The handler refuses it.');
        return { run: runInfo({ runId }) };
      },
      'run.list': async () => ({ runs: [] }),
    },
  });
  cleanups.push(() => server.close({ graceMs: 0 }));
  const connection = await RawConnection.open(server.socketPath);
  cleanups.push(() => connection.destroy());
  return connection;
}

interface ErrorAnswer {
  id: unknown;
  error: { code: number; data: { code: string } };
}

function codes(message: unknown): { id: unknown; code: number; repaCode: string } {
  const { id, error } = message as ErrorAnswer;
  return { id, code: error.code, repaCode: error.data.code };
}

describe('JSON-RPC 2.0 error codes', () => {
  it('answers malformed JSON and invalid UTF-8 with -32700 and id null', async () => {
    const connection = await connect();
    await connection.write('{"jsonrpc":"2.0","id":1,\n');
    expect(codes(await connection.next())).toEqual({
      id: null,
      code: -32700,
      repaCode: 'invalid_request',
    });
    await connection.write(Buffer.from([0x22, 0xff, 0x22, 0x0a]));
    expect(codes(await connection.next())).toMatchObject({ code: -32700 });
  });

  it('answers an invalid Request object with -32600', async () => {
    const connection = await connect();
    const invalid = [
      { id: 1, method: 'run.list' }, // no jsonrpc
      { jsonrpc: '1.0', id: 2, method: 'run.list' },
      { jsonrpc: '2.0', id: 3 }, // no method
      { jsonrpc: '2.0', id: 4, method: 7 },
      { jsonrpc: '2.0', id: 5, method: 'run.list', extra: true },
      42,
      'text',
    ];
    for (const message of invalid) {
      await connection.write(`${JSON.stringify(message)}\n`);
      expect(codes(await connection.next())).toMatchObject({
        code: -32600,
        repaCode: 'invalid_request',
      });
    }
  });

  it('answers an unknown method with -32601 before and after initialize', async () => {
    const connection = await connect();
    await connection.request(1, 'no.such', {});
    expect(codes(await connection.next())).toEqual({
      id: 1,
      code: -32601,
      repaCode: 'method_not_found',
    });
    await connection.initialize();
    await connection.request(2, 'no.such', {});
    expect(codes(await connection.next())).toMatchObject({ id: 2, code: -32601 });
  });

  it('answers bad params with -32602 and a call before initialize with not_initialized', async () => {
    const connection = await connect();
    await connection.request(1, 'run.get', { runId: 'r1' });
    expect(codes(await connection.next())).toEqual({
      id: 1,
      code: -32000,
      repaCode: 'not_initialized',
    });
    await connection.initialize();
    await connection.request(2, 'run.get', { runId: '' });
    expect(codes(await connection.next())).toEqual({
      id: 2,
      code: -32602,
      repaCode: 'invalid_request',
    });
    await connection.request(3, 'run.get', { runId: 'r1', runID: 'typo' });
    expect(codes(await connection.next())).toMatchObject({ id: 3, code: -32602 });
  });

  it('answers invalid_request a handler decides with -32000: -32602 is for the schema only', async () => {
    const connection = await connect();
    await connection.initialize();
    await connection.request(1, 'run.get', { runId: 'refused' });
    expect(codes(await connection.next())).toEqual({
      id: 1,
      code: -32000,
      repaCode: 'invalid_request',
    });
  });
});

describe('JSON-RPC 2.0 batches', () => {
  it('answers a batch with an array of responses, none for its notifications', async () => {
    const connection = await connect();
    const batch = [
      { jsonrpc: '2.0', id: 'i', method: 'initialize', params: { protocolVersions: ['v1'] } },
      { jsonrpc: '2.0', id: 'g', method: 'run.get', params: { runId: 'r1' } },
      { jsonrpc: '2.0', method: 'run.list', params: {} },
      { jsonrpc: '2.0', id: 'x', method: 'no.such' },
      { foo: 'bar' },
    ];
    await connection.write(`${JSON.stringify(batch)}\n`);
    const answer = (await connection.next()) as Record<string, unknown>[];
    expect(Array.isArray(answer)).toBe(true);
    expect(answer).toHaveLength(4);
    expect(answer[0]).toMatchObject({ id: 'i', result: { protocolVersion: 'v1' } });
    expect(answer[1]).toMatchObject({ id: 'g', result: { run: { runId: 'r1' } } });
    expect(codes(answer[2])).toMatchObject({ id: 'x', code: -32601 });
    expect(codes(answer[3])).toMatchObject({ id: null, code: -32600 });
  });

  it('sends nothing for a batch of notifications and answers the next request', async () => {
    const connection = await connect();
    await connection.write(`${JSON.stringify([{ jsonrpc: '2.0', method: 'run.list' }])}\n`);
    await connection.request(1, 'initialize', { protocolVersions: ['v1'] });
    expect(await connection.next()).toMatchObject({ id: 1, result: { protocolVersion: 'v1' } });
  });

  it('answers an empty batch with one -32600 error', async () => {
    const connection = await connect();
    await connection.write('[]\n');
    expect(codes(await connection.next())).toEqual({
      id: null,
      code: -32600,
      repaCode: 'invalid_request',
    });
  });
});
