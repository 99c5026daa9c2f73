import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type WebSocket as ServerSocket, WebSocketServer } from 'ws';
import { event, repaErrorOf, runInfo } from '../test/scripted-server.js';
import { createRepaClient, type RepaClient } from './create-repa-client.js';
import { webSocketTransport } from './web-socket-transport.js';

// The page's transport, with Node's own WebSocket (the same WHATWG API a browser has) against a
// real WebSocket server whose answers the test writes.

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Received {
  method: string;
  id?: number;
  params?: unknown;
}

/** A WebSocket server on 127.0.0.1 answering with `script`; its URL and what it received. */
async function serve(script: (message: Received, socket: ServerSocket) => void) {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  const received: Received[] = [];
  server.on('connection', (socket) => {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as Received;
      received.push(message);
      if (message.method === 'initialize') {
        const result = { protocolVersion: 'v1', server: { name: 'ws', version: '1' } };
        socket.send(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
      } else script(message, socket);
    });
  });
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no address');
  return { url: `ws://127.0.0.1:${address.port}/rpc`, received, server };
}

function clientOf(url: string): RepaClient {
  const client = createRepaClient(webSocketTransport(url));
  cleanups.push(() => client.close());
  return client;
}

describe('webSocketTransport', () => {
  it('speaks v1 with one message per WebSocket message: requests, results and notifications', async () => {
    const { url, received } = await serve((message, socket) => {
      socket.send(JSON.stringify(event({ type: 'text-delta', delta: 'Hi' })));
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { run: runInfo() } }));
    });
    const client = clientOf(url);
    const deltas: string[] = [];
    client.on('run.event', ({ event: runEvent }) => {
      if (runEvent.type === 'text-delta') deltas.push(runEvent.delta);
    });
    expect((await client.request('run.get', { runId: 'r1' })).run.runId).toBe('r1');
    expect(deltas).toEqual(['Hi']);
    expect(received.map((message) => message.method)).toEqual(['initialize', 'run.get']);
  });

  it('rejects with daemon_unavailable naming the address when nothing listens there', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen({ host: '127.0.0.1', port: 0 }, resolve));
    const address = probe.address();
    if (typeof address !== 'object' || address === null) throw new Error('no address');
    await new Promise((resolve) => probe.close(resolve));
    const url = `ws://127.0.0.1:${address.port}/rpc`;
    const error = await repaErrorOf(clientOf(url).connect());
    expect(error.code).toBe('daemon_unavailable');
    expect(error.message).toContain(url);
  });

  it('closes on a message that is not JSON, failing the pending call with internal', async () => {
    const { url } = await serve((_message, socket) => socket.send('{"jsonrpc":'));
    const error = await repaErrorOf(clientOf(url).request('run.get', { runId: 'r1' }));
    expect(error.code).toBe('internal');
    expect(error.message).toBe('The daemon sent malformed JSON.');
  });

  it('fails pending calls with daemon_unavailable when the daemon closes the socket', async () => {
    const { url } = await serve((_message, socket) => socket.terminate());
    const error = await repaErrorOf(clientOf(url).request('run.get', { runId: 'r1' }));
    expect(error.code).toBe('daemon_unavailable');
  });
});
