import { connect, type Socket } from 'node:net';
import { RepaError } from '../errors/repa-error.js';
import { encodeFrame, FrameDecoder } from '../v1/framing.js';
import { jsonRpcResponseSchema } from '../v1/json-rpc.js';

/** Where the daemon listens: its unix socket, or its loopback TCP listener with the token. */
export type RepaClientTarget =
  | {
      /** The daemon's unix socket, `<appDirectory>/run/daemon.sock`. */
      socketPath: string;
    }
  | {
      /** The TCP listener's host, normally `127.0.0.1`. */
      host: string;
      /** The TCP listener's port. */
      port: number;
      /** The token the TCP listener was started with. */
      token: string;
    };

interface Pending {
  method: string;
  resolve: (result: unknown) => void;
  reject: (error: RepaError) => void;
}

interface ConnectionEvents {
  /** A notification from the server. */
  onNotification: (method: string, params: unknown) => void;
  /** The connection closed; `error` says why, for the requests it could not answer. */
  onClose: (error: RepaError) => void;
}

/** The target as shown in messages. */
function describeTarget(target: RepaClientTarget): string {
  return 'socketPath' in target ? target.socketPath : `${target.host}:${target.port}`;
}

/** Opens a socket to the target; a refused or missing daemon becomes `daemon_unavailable`. */
export function openSocket(target: RepaClientTarget): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket =
      'socketPath' in target
        ? connect({ path: target.socketPath })
        : connect({ host: target.host, port: target.port });
    const onError = (error: NodeJS.ErrnoException): void => {
      socket.destroy();
      reject(unavailable(target, error));
    };
    socket.once('error', onError);
    socket.once('connect', () => {
      socket.off('error', onError);
      resolve(socket);
    });
  });
}

function unavailable(target: RepaClientTarget, error: NodeJS.ErrnoException): RepaError {
  const where = describeTarget(target);
  const details = { address: where, errno: error.code ?? null };
  if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') {
    return new RepaError('daemon_unavailable', `No Repa daemon is listening at ${where}.`, {
      fix: 'Start the daemon (repa daemon start), or check that the app directory is the one it uses.',
      details,
      cause: error,
    });
  }
  if (error.code === 'EACCES' || error.code === 'EPERM') {
    return new RepaError('daemon_unavailable', `Not allowed to connect to ${where}.`, {
      fix: 'Run the client as the user who started the daemon; its socket is private to that user.',
      details,
      cause: error,
    });
  }
  return new RepaError('daemon_unavailable', `Could not connect to ${where}: ${error.message}`, {
    details,
    cause: error,
  });
}

/**
 * One open connection: writes requests, matches responses to them by id and hands notifications on.
 * Contract: every request either settles with its response or rejects once the connection closes.
 */
export class ClientConnection {
  readonly #socket: Socket;
  readonly #decoder: FrameDecoder;
  readonly #events: ConnectionEvents;
  readonly #pending = new Map<number, Pending>();
  readonly #closedPromise: Promise<void>;
  #nextId = 1;
  #closeReason: RepaError | null = null;
  #closed = false;

  constructor(socket: Socket, maxFrameBytes: number, events: ConnectionEvents) {
    this.#socket = socket;
    this.#decoder = new FrameDecoder({ maxFrameBytes });
    this.#events = events;
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    // Errors (ECONNRESET, EPIPE) are followed by 'close', which settles everything.
    socket.on('error', () => {});
    this.#closedPromise = new Promise((resolve) => {
      socket.once('close', () => {
        this.#closed = true;
        const reason =
          this.#closeReason ??
          new RepaError('daemon_unavailable', 'The connection to the daemon closed.', {
            fix: 'Call again: the client reconnects. run.submit and run.retry are idempotent by requestId.',
          });
        this.#rejectAll(reason);
        this.#events.onClose(reason);
        resolve();
      });
    });
  }

  /** True once the socket closed. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Sends a request and resolves with its raw result, or rejects with the server's error. */
  call(method: string, params: unknown): Promise<unknown> {
    if (this.#closed || this.#socket.destroyed) {
      return Promise.reject(
        this.#closeReason ??
          new RepaError('daemon_unavailable', `The connection closed before ${method} was sent.`),
      );
    }
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { method, resolve, reject });
      this.#socket.write(encodeFrame({ jsonrpc: '2.0', id, method, params }));
    });
  }

  /** Sends a notification (no answer). */
  notify(method: string, params: unknown): void {
    if (!this.#socket.destroyed)
      this.#socket.write(encodeFrame({ jsonrpc: '2.0', method, params }));
  }

  /** Closes the connection; pending requests reject with `reason`. Resolves once closed. */
  destroy(reason: RepaError): Promise<void> {
    this.#closeReason ??= reason;
    this.#socket.destroy();
    return this.#closedPromise;
  }

  #onData(chunk: Buffer): void {
    for (const frame of this.#decoder.push(chunk)) {
      if (!frame.ok && frame.fatal) {
        void this.destroy(frame.error);
        return;
      }
      if (!frame.ok) {
        void this.destroy(new RepaError('internal', `The daemon sent malformed JSON.`));
        return;
      }
      this.#onMessage(frame.value);
    }
  }

  #onMessage(message: unknown): void {
    if (isNotification(message)) {
      this.#events.onNotification(message.method, message.params);
      return;
    }
    const parsed = jsonRpcResponseSchema.safeParse(message);
    if (!parsed.success) return; // Not something this client can act on.
    const response = parsed.data;
    if ('error' in response) {
      const error = RepaError.fromWire(response.error.data);
      if (response.id === null) {
        // The server could not tell which request failed (e.g. message_too_large, TCP auth):
        // it closes the connection next, so every pending request gets this error.
        this.#closeReason ??= error;
        this.#rejectAll(error);
        return;
      }
      this.#take(response.id)?.reject(error);
      return;
    }
    this.#take(response.id)?.resolve(response.result);
  }

  #take(id: string | number): Pending | undefined {
    if (typeof id !== 'number') return undefined;
    const pending = this.#pending.get(id);
    this.#pending.delete(id);
    return pending;
  }

  #rejectAll(error: RepaError): void {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const request of pending) request.reject(error);
  }
}

function isNotification(message: unknown): message is { method: string; params?: unknown } {
  return (
    typeof message === 'object' &&
    message !== null &&
    !('id' in message) &&
    typeof (message as { method?: unknown }).method === 'string'
  );
}
