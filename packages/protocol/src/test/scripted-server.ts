import { mkdtempSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { RepaClient, RepaClientOptions } from '../client/create-repa-client.js';
import {
  createRepaClient,
  type RepaClientTarget,
  type SocketTransportOptions,
} from '../node/socket-transport.js';
import type { RepaError } from '../v1/errors/repa-error.js';
import { encodeFrame, FrameDecoder } from '../v1/framing.js';
import { errorResponse } from '../v1/json-rpc.js';
import type { JsonRpcRequest, RunEventNotification } from '../v1/wire-types.generated.js';

/** One connection to a {@link ScriptedServer}, as the test sees it. */
export class ScriptedConnection {
  /** Every message received, in order. */
  readonly received: JsonRpcRequest[] = [];
  readonly #socket: Socket;

  constructor(socket: Socket) {
    this.#socket = socket;
  }

  /** Sends any message. */
  send(message: unknown): void {
    this.#socket.write(encodeFrame(message));
  }

  /** Writes bytes as they are (no framing). */
  raw(text: string): void {
    this.#socket.write(text);
  }

  /** Answers request `id` with `result`. */
  result(id: JsonRpcRequest['id'], result: unknown): void {
    this.send({ jsonrpc: '2.0', id, result });
  }

  /** Answers request `id` with `error`. */
  error(id: JsonRpcRequest['id'] | null, error: RepaError): void {
    this.send(errorResponse(id ?? null, error));
  }

  /** Drops the connection. */
  destroy(): void {
    this.#socket.destroy();
  }
}

/** A real NDJSON JSON-RPC server on a unix socket (or loopback TCP) whose answers the test writes. */
export interface ScriptedServer {
  /** The target a client connects to. */
  target: RepaClientTarget;
  /** Every connection accepted so far. */
  connections: ScriptedConnection[];
  /** Stops the server and drops its connections. */
  close(): Promise<void>;
}

/** What the scripted server does with each received message. */
export type Script = (message: JsonRpcRequest, connection: ScriptedConnection) => void;

/** A script that answers `initialize` with v1 and hands everything else to `next`. */
export function withInitialize(next: Script = () => {}): Script {
  return (message, connection) => {
    if (message.method === 'initialize') {
      connection.result(message.id, {
        protocolVersion: 'v1',
        server: { name: 'scripted', version: '1' },
      });
    } else next(message, connection);
  };
}

/** Starts a scripted server; `tcp` listens on 127.0.0.1 port 0 instead of a socket. */
export async function startScriptedServer(
  script: Script,
  options: { tcp?: { token: string } } = {},
): Promise<ScriptedServer> {
  const connections: ScriptedConnection[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    const connection = new ScriptedConnection(socket);
    connections.push(connection);
    const decoder = new FrameDecoder();
    socket.on('data', (chunk: Buffer) => {
      for (const frame of decoder.push(chunk)) {
        if (!frame.ok) continue;
        const message = frame.value as JsonRpcRequest;
        connection.received.push(message);
        script(message, connection);
      }
    });
  });
  let target: RepaClientTarget;
  if (options.tcp) {
    await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
    const address = server.address();
    if (typeof address !== 'object' || address === null) throw new Error('no TCP address');
    target = { host: '127.0.0.1', port: address.port, token: options.tcp.token };
  } else {
    const socketPath = join(mkdtempSync(join(tmpdir(), 'repa-client-')), 'daemon.sock');
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    target = { socketPath };
  }
  return {
    target,
    connections,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export { repaErrorOf, runInfo } from '../testing/index.js';

/**
 * Scripted servers and clients for one test file, closed after each test: `serve` starts a
 * server, `clientOf` connects a client to it (reconnecting after 1 ms unless `options` say).
 */
export function useScriptedServers(): {
  serve: typeof startScriptedServer;
  clientOf: (
    server: ScriptedServer,
    options?: RepaClientOptions & SocketTransportOptions,
  ) => RepaClient;
} {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return {
    serve: async (...args) => {
      const server = await startScriptedServer(...args);
      cleanups.push(() => server.close());
      return server;
    },
    clientOf: (server, options = {}) => {
      const client = createRepaClient(server.target, { reconnectDelayMs: 1, ...options });
      cleanups.push(() => client.close());
      return client;
    },
  };
}

/** A `run.event` notification of run r1 (session s1) as the server sends it. */
export function event(
  runEvent: RunEventNotification['event'],
  seq = 1,
  runId = 'r1',
): { jsonrpc: '2.0'; method: 'run.event'; params: RunEventNotification } {
  return {
    jsonrpc: '2.0',
    method: 'run.event',
    params: { runId, sessionId: 's1', seq, event: runEvent },
  };
}
