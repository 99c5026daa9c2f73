import { connect, type Socket } from 'node:net';
import {
  createRepaClient as createClient,
  type RepaClient,
  type RepaClientOptions,
} from '../client/create-repa-client.js';
import type { RepaTransport, RepaTransportFactory } from '../client/repa-transport.js';
import { TCP_AUTH_METHOD } from '../client/tcp-auth.js';
import { RepaError } from '../v1/errors/repa-error.js';
import { DEFAULT_MAX_FRAME_BYTES, encodeFrame, FrameDecoder } from '../v1/framing.js';

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

/** Options of {@link socketTransport}. */
export interface SocketTransportOptions {
  /** Largest frame accepted from the daemon, in bytes. Default 8 MiB. */
  maxFrameBytes?: number;
}

/** The target as shown in messages. */
function describeTarget(target: RepaClientTarget): string {
  return 'socketPath' in target ? target.socketPath : `${target.host}:${target.port}`;
}

/**
 * Protocol v1 over the daemon's unix socket, or its loopback TCP listener (which the transport
 * opens with the token's auth frame): newline-delimited JSON, one message per line.
 */
export function socketTransport(
  target: RepaClientTarget,
  options: SocketTransportOptions = {},
): RepaTransportFactory {
  const maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  return () => new SocketTransport(target, maxFrameBytes);
}

/**
 * Creates a client for the daemon at `target` (its unix socket, or loopback TCP with a token): the
 * protocol's client over {@link socketTransport}.
 */
export function createRepaClient(
  target: RepaClientTarget,
  options: RepaClientOptions & SocketTransportOptions = {},
): RepaClient {
  return createClient(socketTransport(target, options), options);
}

class SocketTransport implements RepaTransport {
  readonly #target: RepaClientTarget;
  readonly #decoder: FrameDecoder;
  #socket: Socket | undefined;
  #closeReason: RepaError | undefined;
  onmessage?: ((message: unknown) => void) | undefined;
  onclose?: ((error?: RepaError) => void) | undefined;

  constructor(target: RepaClientTarget, maxFrameBytes: number) {
    this.#target = target;
    this.#decoder = new FrameDecoder({ maxFrameBytes });
  }

  async start(): Promise<void> {
    const socket = await openSocket(this.#target);
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    // Errors (ECONNRESET, EPIPE) are followed by 'close', which settles everything.
    socket.on('error', () => {});
    socket.once('close', () => this.onclose?.(this.#closeReason));
    if ('token' in this.#target) {
      this.send({ jsonrpc: '2.0', method: TCP_AUTH_METHOD, params: { token: this.#target.token } });
    }
  }

  send(message: unknown): void {
    if (this.#socket !== undefined && !this.#socket.destroyed) {
      this.#socket.write(encodeFrame(message));
    }
  }

  close(): void {
    this.#socket?.destroy();
  }

  #onData(chunk: Buffer): void {
    for (const frame of this.#decoder.push(chunk)) {
      if (!frame.ok) {
        this.#closeReason = frame.fatal
          ? frame.error
          : new RepaError('internal', 'The daemon sent malformed JSON.');
        this.close();
        return;
      }
      this.onmessage?.(frame.value);
    }
  }
}

/** Opens a socket to the target; a refused or missing daemon becomes `daemon_unavailable`. */
function openSocket(target: RepaClientTarget): Promise<Socket> {
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
