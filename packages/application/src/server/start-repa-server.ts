import { createServer, type Server, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { RepaError, type V1Notification, type V1NotificationParams } from '@repa/protocol';
import { DEFAULT_MAX_FRAME_BYTES, encodeFrame, errorResponse } from '@repa/protocol/internal';
import { claimDaemonSocket } from './claim-daemon-socket.js';
import { MethodTable } from './method-table.js';
import { PendingBytes } from './pending-bytes.js';
import type { RepaHandledMethod, RepaHandlers, RepaTransport } from './repa-handlers.js';
import {
  type ConnectionSettings,
  type FrameStream,
  ServerConnection,
} from './server-connection.js';
import { startWebListener, type WebListener } from './web-listener.js';
import { deleteWebState, readWebState, writeWebState } from './web-state.js';

/** Options of {@link startRepaServer}. */
export interface RepaServerOptions {
  /** The application directory; the socket is `<appDirectory>/run/daemon.sock`. */
  appDirectory: string;
  /**
   * The application's answer to each v1 method; a missing one answers `method_not_found`. Given
   * as a promise (the application still opening), requests wait for it once their params are
   * checked; a rejection is each waiting request's answer.
   */
  handlers: RepaHandlers | Promise<RepaHandlers>;
  /**
   * Called as a request to one of the `handlers` starts (its params checked); the function it
   * returns, if any, once the handler is done (e.g. to record activity). Default: nothing.
   */
  onRequest?: (method: RepaHandledMethod) => (() => void) | undefined;
  /** Name and version reported by `initialize`. Default `{ name: 'repa-daemon', version: '0.0.0' }`. */
  serverInfo?: { name: string; version: string; model?: string };
  /**
   * Also listen on loopback TCP (127.0.0.1 only). Off by default. Every TCP connection must open
   * with a `rpc.auth` frame carrying `token` (at least 16 characters) before `initialize`.
   */
  tcp?: { port: number; token: string };
  /** Largest accepted frame in bytes; a larger one is answered `message_too_large` and the connection closed. Default 8 MiB. */
  maxFrameBytes?: number;
  /**
   * Most connections served at once (unix and TCP together). A connection beyond it gets one
   * `busy` error line (`id: null`, `details.limit`) and is closed. Default 64.
   */
  maxConnections?: number;
  /**
   * Most bytes of memory unfinished frames pin across all connections (a frame's bytes, the whole
   * buffer of a read it keeps a view of, the blocks small reads are copied into). A connection whose
   * unfinished frame would pass it is answered `message_too_large`, no longer read, and closed; the
   * others keep theirs. Default 32 MiB.
   */
  maxTotalBufferedBytes?: number;
  /** A connection with no traffic and no request in progress for this long is closed. Default 10 minutes. */
  idleTimeoutMs?: number;
  /** How long {@link RepaServer.close} waits for requests in progress. Default 5 seconds. */
  closeGraceMs?: number;
  /**
   * The built web app to serve when a unix-socket client asks for it (`repa web`): on 127.0.0.1,
   * guarded by a per-launch secret, speaking protocol v1 over a WebSocket. Off when not given.
   */
  web?: {
    staticDirectory: string;
    /** A space's PDF bytes for the page's reader (see `WebListenerOptions.pdfBytes`). */
    pdfBytes?: (space: string, path: string) => Promise<{ bytes: Buffer; version: string }>;
  };
  /** Called with every non-Repa error answered as `internal` (the client sees no stack). */
  onError?: (error: unknown, context: { connectionId: string; method?: string }) => void;
}

/** A running protocol v1 server. */
export interface RepaServer {
  /** The unix socket it listens on. */
  readonly socketPath: string;
  /** The loopback TCP address, when `tcp` was given (the real port when 0 was asked). */
  readonly tcpAddress: { host: string; port: number } | undefined;
  /** Sends a notification to one connection; false when it is gone or not initialized. */
  notifyConnection<N extends V1Notification>(
    connectionId: string,
    method: N,
    params: V1NotificationParams<N>,
  ): boolean;
  /** Sends a notification to every initialized connection; returns how many got it. */
  broadcast<N extends V1Notification>(method: N, params: V1NotificationParams<N>): number;
  /**
   * Stops accepting connections, answers new requests `daemon_unavailable`, waits up to
   * `graceMs` (default `closeGraceMs`) for requests in progress, then closes every connection and
   * removes the socket. Safe to call more than once; suitable for a SIGTERM handler.
   */
  close(options?: { graceMs?: number }): Promise<void>;
  /** @internal Connection and buffer statistics for tests. */
  readonly stats: ServerStats;
}

/** @internal */
export interface ServerStats {
  /** Open connections. */
  connections: number;
  /** The most bytes of an unfinished frame any connection held after a read. */
  peakPendingFrameBytes: number;
  /** The most memory unfinished frames of all connections pinned at once (the budget's count). */
  peakBufferedBytes: number;
}

const TEN_MINUTES = 10 * 60 * 1000;
const DEFAULT_MAX_CONNECTIONS = 64;
const DEFAULT_MAX_TOTAL_BUFFERED_BYTES = 32 * 1024 * 1024;
// A refused connection gets this long to read its error line before it is cut off.
const REFUSAL_LINGER_MS = 1_000;
const LOOPBACK = '127.0.0.1';

/**
 * Starts the daemon's JSON-RPC 2.0 server on `<appDirectory>/run/daemon.sock` (and optionally
 * loopback TCP). Rejects with `daemon_already_running` when a live daemon serves that directory.
 */
export async function startRepaServer(options: RepaServerOptions): Promise<RepaServer> {
  if (options.tcp !== undefined && options.tcp.token.length < 16) {
    throw new RepaError('invalid_request', 'The TCP token must have at least 16 characters.', {
      fix: 'Pass a random token, e.g. crypto.randomBytes(24).toString("base64url").',
    });
  }
  const connections = new Map<string, ServerConnection>();
  const pendingBytes = new PendingBytes(
    options.maxTotalBufferedBytes ?? DEFAULT_MAX_TOTAL_BUFFERED_BYTES,
  );
  const stats: ServerStats = {
    connections: 0,
    peakPendingFrameBytes: 0,
    get peakBufferedBytes() {
      return pendingBytes.peak;
    },
  };
  let closing = false;
  let nextConnection = 1;
  const maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  const shared: Omit<ConnectionSettings, 'token'> = {
    methods: new MethodTable(options.handlers, options.onRequest),
    serverInfo: options.serverInfo ?? { name: 'repa-daemon', version: '0.0.0' },
    maxFrameBytes: options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES,
    idleTimeoutMs: options.idleTimeoutMs ?? TEN_MINUTES,
    maxBufferedWriteBytes: 4 * (options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES),
    isClosing: () => closing,
    pendingBytes,
    onError: options.onError ?? (() => {}),
    recordPending: (bytes) => {
      stats.peakPendingFrameBytes = Math.max(stats.peakPendingFrameBytes, bytes);
    },
  };
  const accept = (transport: RepaTransport, token: string | undefined) => (socket: FrameStream) => {
    if (closing) {
      socket.destroy();
      return;
    }
    if (connections.size >= maxConnections) {
      refuseConnection(socket, maxConnections);
      return;
    }
    const connection = new ServerConnection(socket, `${transport}-${nextConnection++}`, transport, {
      ...shared,
      token,
    });
    connections.set(connection.connectionId, connection);
    stats.connections = connections.size;
    void connection.closed.then(() => {
      connections.delete(connection.connectionId);
      stats.connections = connections.size;
    });
  };
  const onServerError = (error: unknown): void => shared.onError(error, { connectionId: 'server' });
  let web: Promise<WebListener> | undefined;
  const webOptions = options.web;
  const startWeb = (
    staticDirectory: string,
    port: number,
    secret?: string,
  ): Promise<WebListener> => {
    const opening = startWebListener({
      staticDirectory,
      port,
      secret,
      maxFrameBytes: shared.maxFrameBytes,
      pdfBytes: webOptions?.pdfBytes,
      accept: accept('web', undefined),
      onError: onServerError,
    });
    web = opening;
    // A failed start (port taken) is not kept: the next request may try another port.
    opening.catch(() => {
      if (web === opening) web = undefined;
    });
    return opening;
  };
  if (webOptions !== undefined) {
    shared.openWeb = async (port) => {
      if (closing) throw new RepaError('daemon_unavailable', 'The daemon is shutting down.');
      let listener: WebListener;
      if (web === undefined) {
        listener = await startWeb(webOptions.staticDirectory, port);
        // Kept so that a restarted daemon serves the open page again (same port, same secret).
        await writeWebState(options.appDirectory, {
          port: listener.port,
          secret: listener.secret,
        }).catch(onServerError);
      } else listener = await web;
      if (port !== 0 && listener.port !== port) {
        throw new RepaError('busy', `The web app is already served on port ${listener.port}.`, {
          fix: `Open it there (repa web without --port), or stop the daemon first (repa daemon stop).`,
          details: { port: listener.port },
        });
      }
      return { url: listener.url };
    };
  }

  const unix = createServer(accept('unix', undefined));
  const claim = await claimDaemonSocket(options.appDirectory, unix);
  unix.on('error', onServerError);
  if (webOptions !== undefined) {
    // The previous daemon served a page: serve it again, so that it reconnects by itself.
    const saved = await readWebState(options.appDirectory);
    if (saved !== undefined) {
      startWeb(webOptions.staticDirectory, saved.port, saved.secret).catch(onServerError);
    }
  }

  let tcp: Server | undefined;
  let tcpAddress: RepaServer['tcpAddress'];
  if (options.tcp !== undefined) {
    tcp = createServer(accept('tcp', options.tcp.token));
    try {
      tcpAddress = await listenLoopback(tcp, options.tcp.port);
    } catch (error) {
      await closeServer(unix);
      await claim.release();
      throw error;
    }
    tcp.on('error', onServerError);
  }

  let closed: Promise<void> | undefined;
  const close = async (graceMs: number): Promise<void> => {
    closing = true;
    // Stop accepting; libuv unlinks the unix socket path when its server closes.
    const listenersClosed = Promise.all([closeServer(unix), tcp ? closeServer(tcp) : undefined]);
    const inFlight = [...connections.values()].flatMap((connection) => [...connection.inFlight]);
    const grace = new AbortController();
    await Promise.race([
      Promise.allSettled(inFlight),
      delay(graceMs, undefined, { signal: grace.signal }).catch(() => {}),
    ]);
    grace.abort();
    await Promise.all([...connections.values()].map((connection) => connection.destroy()));
    await web?.then((listener) => listener.close()).catch(() => undefined);
    // A clean close (repa daemon stop, idle exit) ends the page: the next daemon makes a new secret.
    if (webOptions !== undefined) await deleteWebState(options.appDirectory);
    await listenersClosed;
    await claim.release();
  };

  return {
    socketPath: claim.socketPath,
    tcpAddress,
    stats,
    notifyConnection(connectionId, method, params) {
      return connections.get(connectionId)?.notify(method, params) ?? false;
    },
    broadcast(method, params) {
      let sent = 0;
      for (const connection of connections.values()) {
        if (connection.notify(method, params)) sent++;
      }
      return sent;
    },
    close(closeOptions = {}) {
      closed ??= close(closeOptions.graceMs ?? options.closeGraceMs ?? 5_000);
      return closed;
    },
  };
}

/** Answers a connection beyond the limit with one `busy` line, then closes it. */
function refuseConnection(socket: FrameStream, limit: number): void {
  const error = new RepaError('busy', `The daemon serves at most ${limit} connections at once.`, {
    fix: 'Close connections you no longer use, then connect again.',
    details: { limit },
  });
  socket.on('error', () => {}); // The client may be gone already; 'close' follows.
  if ('resume' in socket) (socket as Socket).resume(); // Whatever it sends is discarded unread.
  socket.end(encodeFrame(errorResponse(null, error)));
  setTimeout(() => socket.destroy(), REFUSAL_LINGER_MS).unref();
}

function listenLoopback(server: Server, port: number): Promise<{ host: string; port: number }> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => {
      reject(
        new RepaError('io_error', `Could not listen on ${LOOPBACK}:${port}: ${error.message}`, {
          fix: 'Choose a free port for the TCP listener, or 0 for any free port.',
          details: { port },
          cause: error,
        }),
      );
    };
    server.once('error', onError);
    server.listen({ host: LOOPBACK, port }, () => {
      server.off('error', onError);
      const address = server.address();
      resolve({
        host: LOOPBACK,
        port: typeof address === 'object' && address ? address.port : port,
      });
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) resolve();
    else server.close(() => resolve());
  });
}
