import { RepaError, type V1Notification, type V1NotificationParams } from '@repa/protocol';
import {
  type DecodedFrame,
  encodeFrame,
  errorResponse,
  FrameDecoder,
  JSON_RPC_ERROR_CODES,
  type JsonRpcResponse,
  MAX_MESSAGE_DEPTH,
  WEB_OPEN_METHOD,
} from '@repa/protocol/internal';
import {
  invalidRequestFromZod,
  jsonRpcRequestSchema,
  v1Notifications,
  webOpenParamsSchema,
} from '@repa/protocol/schemas';
import type { z } from 'zod';
import { checkAuthFrame, idOf, initializeResult } from './connection-handshake.js';
import type { MethodTable } from './method-table.js';
import type { PendingBytes } from './pending-bytes.js';
import type { ConnectionContext, RepaTransport } from './repa-handlers.js';
import { answerCodeOf, schemaRefusal } from './schema-refusal.js';

/**
 * The byte stream a connection reads frames from and writes lines to: a socket, or the adapter of
 * a WebSocket (one message per line).
 */
export interface FrameStream {
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  once(event: 'close', listener: () => void): unknown;
  /** Stops reading: whatever the client sends after a fatal error stays in the kernel, unread. */
  pause(): unknown;
  write(line: string): unknown;
  end(line: string): unknown;
  destroy(): unknown;
  readonly destroyed: boolean;
  readonly writable: boolean;
  readonly writableLength: number;
}

/** What every connection of one server shares. */
export interface ConnectionSettings {
  /** The application's methods. */
  methods: MethodTable;
  serverInfo: { name: string; version: string; model?: string };
  maxFrameBytes: number;
  idleTimeoutMs: number;
  /** Bytes queued for a client that does not read before it is disconnected. */
  maxBufferedWriteBytes: number;
  /** The token a TCP connection must present first; undefined for the unix socket. */
  token: string | undefined;
  /** Opens the web listener on a port (0: any free one) and answers its URL; unix socket only. */
  openWeb?: ((port: number) => Promise<{ url: string }>) | undefined;
  /** True once the server is closing: new requests are refused. */
  isClosing: () => boolean;
  /** Reports a non-Repa error (with its stack) that was answered as `internal`. */
  onError: (error: unknown, context: { connectionId: string; method?: string }) => void;
  /** The bytes of unfinished frames all connections of the server hold, with their bound. */
  pendingBytes: PendingBytes;
  /** Records the bytes of an unfinished frame a connection holds (test statistics). */
  recordPending: (bytes: number) => void;
}

// After answering a fatal error the connection is ended; a client that neither reads nor closes
// is cut off after this long.
const LINGER_MS = 1_000;

/**
 * One client connection: decodes frames, answers each request independently (in any order) and
 * sends notifications. Contract: nothing a client sends can throw out of this class.
 */
export class ServerConnection implements ConnectionContext {
  readonly connectionId: string;
  readonly transport: RepaTransport;
  readonly #socket: FrameStream;
  readonly #settings: ConnectionSettings;
  readonly #decoder: FrameDecoder;
  readonly #inFlight = new Set<Promise<void>>();
  readonly #closeCallbacks = new Set<() => void>();
  readonly #idleTimer: NodeJS.Timeout;
  readonly #closed: Promise<void>;
  #authenticated: boolean;
  #initialized = false;
  /** The memory this connection's unfinished frame pins, as counted in `settings.pendingBytes`. */
  #heldBytes = 0;
  #ending = false;
  #isClosed = false;

  constructor(
    socket: FrameStream,
    connectionId: string,
    transport: RepaTransport,
    settings: ConnectionSettings,
  ) {
    this.connectionId = connectionId;
    this.transport = transport;
    this.#socket = socket;
    this.#settings = settings;
    this.#decoder = new FrameDecoder({
      maxFrameBytes: settings.maxFrameBytes,
      maxDepth: MAX_MESSAGE_DEPTH,
      refuseUnsafeKeys: true,
    });
    this.#authenticated = settings.token === undefined;
    this.#idleTimer = setTimeout(() => this.#onIdle(), settings.idleTimeoutMs);
    this.#idleTimer.unref();
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    socket.on('error', () => {}); // ECONNRESET and the like; 'close' follows and cleans up.
    this.#closed = new Promise((resolve) => {
      socket.once('close', () => {
        this.#isClosed = true;
        clearTimeout(this.#idleTimer);
        this.#releaseHeldBytes();
        for (const callback of this.#closeCallbacks) this.#runCloseCallback(callback);
        this.#closeCallbacks.clear();
        resolve();
      });
    });
  }

  /** Requests being handled now. */
  get inFlight(): ReadonlySet<Promise<void>> {
    return this.#inFlight;
  }

  /** Resolves once the socket closed. */
  get closed(): Promise<void> {
    return this.#closed;
  }

  notify<N extends V1Notification>(method: N, params: V1NotificationParams<N>): boolean {
    const schema: z.ZodType = v1Notifications[method];
    const parsed = schema.safeParse(params);
    if (!parsed.success) {
      throw new RepaError(
        'internal',
        `Invalid ${method} notification: ${invalidRequestFromZod(parsed.error, params).message}`,
      );
    }
    if (!this.#initialized) return false;
    return this.#send(encodeFrame({ jsonrpc: '2.0', method, params }));
  }

  onClose(callback: () => void): () => void {
    if (this.#isClosed) {
      queueMicrotask(() => this.#runCloseCallback(callback));
      return () => {};
    }
    this.#closeCallbacks.add(callback);
    return () => this.#closeCallbacks.delete(callback);
  }

  /** Closes the connection now. */
  destroy(): Promise<void> {
    this.#socket.destroy();
    return this.#closed;
  }

  #onData(chunk: Buffer): void {
    if (this.#ending) return; // Fatal error answered: the rest is discarded unread.
    this.#idleTimer.refresh();
    const frames: DecodedFrame[] = this.#decoder.push(chunk);
    this.#settings.recordPending(this.#decoder.pendingBytes);
    for (const frame of frames) {
      if (this.#ending) break;
      if (!frame.ok && frame.fatal) {
        // message_too_large: the decoder already dropped the frame; answer and close.
        this.#end(errorResponse(null, frame.error));
        break;
      }
      this.#onFrame(frame);
    }
    this.#holdPendingBytes();
  }

  /**
   * Counts the memory this connection's unfinished frame pins in the server's total. When it grows
   * past the total bound (by at most the one read just decoded), the frame is dropped and the
   * connection is answered `message_too_large`, no longer read, and closed; the other connections
   * keep theirs.
   */
  #holdPendingBytes(): void {
    if (this.#ending) {
      this.#decoder.reset();
      this.#releaseHeldBytes();
      return;
    }
    const held = this.#decoder.heldBytes;
    if (this.#settings.pendingBytes.move(this.#heldBytes, held)) {
      this.#heldBytes = held;
      return;
    }
    this.#decoder.reset();
    this.#releaseHeldBytes();
    const limit = this.#settings.pendingBytes.limit;
    const error = new RepaError(
      'message_too_large',
      `Unfinished messages across all connections exceeded the daemon's limit of ${limit} bytes.`,
      {
        fix: 'Send the message again once the daemon is less loaded, or raise its maxTotalBufferedBytes.',
        details: { limit, scope: 'all-connections' },
      },
    );
    this.#end(errorResponse(null, error));
  }

  #releaseHeldBytes(): void {
    this.#settings.pendingBytes.move(this.#heldBytes, 0);
    this.#heldBytes = 0;
  }

  #onFrame(frame: DecodedFrame): void {
    if (!this.#authenticated) {
      this.#authenticate(frame);
      return;
    }
    if (!frame.ok) {
      const code = frame.parseError
        ? JSON_RPC_ERROR_CODES.parseError
        : JSON_RPC_ERROR_CODES.invalidRequest;
      this.#sendResponse(errorResponse(idOf(frame.value), frame.error, code));
      return;
    }
    if (Array.isArray(frame.value)) {
      this.#batch(frame.value);
      return;
    }
    const answer = this.#handle(frame.value);
    if (answer !== undefined) this.#track(answer.then((response) => this.#sendResponse(response)));
  }

  /**
   * A batch (JSON-RPC 2.0 §6): one array of the responses to its requests, sent once all are
   * answered; nothing when it held only notifications; one `-32600` error for an empty array.
   */
  #batch(messages: unknown[]): void {
    if (messages.length === 0) {
      const error = new RepaError('invalid_request', 'An empty batch is not a valid request.', {
        fix: 'Send at least one request in a batch, or send the request on its own.',
      });
      this.#sendResponse(errorResponse(null, error, JSON_RPC_ERROR_CODES.invalidRequest));
      return;
    }
    const answers: Promise<JsonRpcResponse>[] = [];
    for (const message of messages) {
      const answer = this.#handle(message);
      if (answer !== undefined) answers.push(answer);
    }
    if (answers.length === 0) return;
    this.#track(
      Promise.all(answers).then((responses) => {
        this.#send(`[${responses.map((response) => this.#encode(response)).join(',')}]\n`);
      }),
    );
  }

  /** The answer to one message: undefined for a notification (clients' are ignored). */
  #handle(message: unknown): Promise<JsonRpcResponse> | undefined {
    const parsed = jsonRpcRequestSchema.safeParse(message);
    if (!parsed.success) {
      const error = invalidRequestFromZod(parsed.error, message, 'message');
      return Promise.resolve(
        errorResponse(idOf(message), error, JSON_RPC_ERROR_CODES.invalidRequest),
      );
    }
    const { id, method, params } = parsed.data;
    if (id === undefined) return undefined;
    return this.#answer(id, method, params);
  }

  #track(work: Promise<void>): void {
    const tracked = work.finally(() => this.#inFlight.delete(tracked));
    this.#inFlight.add(tracked);
  }

  async #answer(id: string | number, method: string, params: unknown): Promise<JsonRpcResponse> {
    try {
      return { jsonrpc: '2.0', id, result: await this.#dispatch(method, params) };
    } catch (error) {
      const refusal = this.#toRepaError(error, method);
      return errorResponse(id, refusal, answerCodeOf(refusal));
    }
  }

  async #dispatch(method: string, rawParams: unknown): Promise<unknown> {
    if (this.#settings.isClosing()) {
      throw new RepaError('daemon_unavailable', 'The daemon is shutting down.', {
        fix: 'Call again in a moment; the client reconnects to the next daemon.',
      });
    }
    if (method === 'initialize') return this.#initialize(rawParams);
    const openWeb = this.transport === 'unix' ? this.#settings.openWeb : undefined;
    if (method === WEB_OPEN_METHOD && openWeb !== undefined) {
      if (!this.#initialized) {
        throw new RepaError('not_initialized', `Call initialize before ${method}.`);
      }
      const params = webOpenParamsSchema.safeParse(rawParams ?? {});
      if (!params.success)
        throw schemaRefusal(invalidRequestFromZod(params.error, rawParams ?? {}));
      return openWeb(params.data.port);
    }
    const methods = this.#settings.methods;
    if (!methods.serves(method)) {
      throw new RepaError('method_not_found', `This daemon has no method ${method}.`, {
        details: { method },
      });
    }
    if (!this.#initialized) {
      throw new RepaError('not_initialized', `Call initialize before ${method}.`);
    }
    return methods.call(method, rawParams, this);
  }

  #initialize(rawParams: unknown): unknown {
    const result = initializeResult(rawParams, this.#settings.serverInfo);
    this.#initialized = true;
    return result;
  }

  /** Handles the first frame of a TCP connection: the auth frame, or a refusal and close. */
  #authenticate(decoded: DecodedFrame): void {
    const checked = checkAuthFrame(decoded, this.#settings.token);
    if ('refusal' in checked) {
      this.#end(checked.refusal);
      return;
    }
    this.#authenticated = true;
    if (checked.id !== undefined) {
      this.#sendResponse({ jsonrpc: '2.0', id: checked.id, result: { authenticated: true } });
    }
  }

  #toRepaError(error: unknown, method: string): RepaError {
    if (RepaError.isInstance(error)) return error;
    this.#settings.onError(error, { connectionId: this.connectionId, method });
    const message = error instanceof Error ? error.message : String(error);
    // The message only; the stack stays in the daemon's log (onError).
    return new RepaError('internal', `Internal error while handling ${method}: ${message}`);
  }

  /** A response as JSON; one that cannot be serialized becomes an `internal` error answer. */
  #encode(response: JsonRpcResponse): string {
    try {
      return JSON.stringify(response);
    } catch (error) {
      if (response.id === null) throw error;
      return JSON.stringify(errorResponse(response.id, this.#toRepaError(error, 'the response')));
    }
  }

  #sendResponse(response: JsonRpcResponse): void {
    this.#send(`${this.#encode(response)}\n`);
  }

  /** Writes one frame (a line ending in a newline); false when the connection is gone. */
  #send(line: string): boolean {
    if (this.#socket.destroyed || !this.#socket.writable) return false;
    this.#socket.write(line);
    this.#idleTimer.refresh();
    if (this.#socket.writableLength > this.#settings.maxBufferedWriteBytes) {
      // The client stopped reading; holding more for it would grow without bound.
      this.#socket.destroy();
      return false;
    }
    return true;
  }

  /**
   * Answers a fatal error, stops reading and closes. Nothing more is read: a client still sending
   * (the rest of a refused frame) fills its socket's kernel buffers, not the daemon's memory.
   */
  #end(response: JsonRpcResponse): void {
    this.#ending = true;
    this.#socket.pause();
    if (!this.#socket.destroyed) this.#socket.end(encodeFrame(response));
    setTimeout(() => this.#socket.destroy(), LINGER_MS).unref();
  }

  #onIdle(): void {
    // Idle means nothing read or written for idleTimeoutMs and no request being handled.
    if (this.#inFlight.size > 0) this.#idleTimer.refresh();
    else this.#socket.destroy();
  }

  #runCloseCallback(callback: () => void): void {
    try {
      callback();
    } catch (error) {
      this.#settings.onError(error, { connectionId: this.connectionId });
    }
  }
}
