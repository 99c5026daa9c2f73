import { connect, type Socket } from 'node:net';
import { encodeFrame, FrameDecoder } from '@repa/protocol/internal';

/** A client socket that speaks raw bytes, for feeding the server bad input. */
export class RawConnection {
  /** Resolves once the server closed the connection (or it was destroyed). */
  readonly closed: Promise<void>;
  readonly #socket: Socket;
  readonly #decoder = new FrameDecoder({ maxFrameBytes: 64 * 1024 * 1024 });
  readonly #messages: unknown[] = [];
  readonly #waiters: ((message: unknown) => void)[] = [];

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.on('error', () => {}); // EPIPE/ECONNRESET after the server closed: 'close' follows.
    socket.on('data', (chunk: Buffer) => {
      for (const frame of this.#decoder.push(chunk)) {
        const message = frame.ok ? frame.value : { undecodable: true };
        const waiter = this.#waiters.shift();
        if (waiter) waiter(message);
        else this.#messages.push(message);
      }
    });
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
  }

  /** Connects to a unix socket path or a TCP address. */
  static open(target: string | { host: string; port: number }): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = typeof target === 'string' ? connect({ path: target }) : connect(target);
      socket.once('error', reject);
      socket.once('connect', () => {
        socket.off('error', reject);
        resolve(new RawConnection(socket));
      });
    });
  }

  /**
   * Writes bytes; resolves once they were handed to the kernel, or with the error that kept them
   * from it (the server closed the connection first), or at once when the socket is gone.
   */
  write(data: string | Buffer): Promise<Error | undefined> {
    return new Promise((resolve) => {
      if (this.#socket.destroyed) resolve(undefined);
      else this.#socket.write(data, (error) => resolve(error ?? undefined));
    });
  }

  /** Writes one JSON-RPC request. */
  async request(id: number | string, method: string, params?: unknown): Promise<void> {
    await this.write(encodeFrame({ jsonrpc: '2.0', id, method, params }));
  }

  /** Sends `initialize` with v1 and waits for its answer. */
  async initialize(): Promise<void> {
    await this.request('init', 'initialize', { protocolVersions: ['v1'] });
    await this.next();
  }

  /** The next message from the server, in arrival order. */
  next(): Promise<unknown> {
    const message = this.#messages.shift();
    if (message !== undefined) return Promise.resolve(message);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** True once the socket is closed. */
  get isClosed(): boolean {
    return this.#socket.destroyed;
  }

  /** Drops the connection. */
  destroy(): void {
    this.#socket.destroy();
  }
}
