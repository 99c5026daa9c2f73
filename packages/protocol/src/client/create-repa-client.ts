import { setTimeout as delay } from 'node:timers/promises';
import type { z } from 'zod';
import { RepaError } from '../errors/repa-error.js';
import { PROTOCOL_VERSION } from '../v1/common.js';
import { DEFAULT_MAX_FRAME_BYTES } from '../v1/framing.js';
import {
  type V1Method,
  type V1Notification,
  type V1NotificationParams,
  type V1Params,
  type V1Result,
  v1Methods,
  v1Notifications,
} from '../v1/methods.js';
import { isTerminalRunStatus, type RunEventNotification } from '../v1/runs.js';
import { ClientConnection, openSocket, type RepaClientTarget } from './client-connection.js';
import { TCP_AUTH_METHOD } from './tcp-auth.js';

export type { RepaClientTarget } from './client-connection.js';

/** Options of {@link createRepaClient}. */
export interface RepaClientOptions {
  /** The client's name and version, sent in `initialize` for the daemon's logs. */
  client?: { name: string; version: string };
  /** Largest frame accepted from the daemon, in bytes. Default 8 MiB. */
  maxFrameBytes?: number;
  /** Connection attempts when reconnecting after a drop. Default 3. */
  reconnectAttempts?: number;
  /** Wait before the second reconnect attempt, doubled before each further one. Default 100 ms. */
  reconnectDelayMs?: number;
}

/** A v1 method a client calls (everything but `initialize`, which the client sends itself). */
export type RepaClientMethod = Exclude<V1Method, 'initialize'>;

/** A typed connection to the Repa daemon that reconnects on demand. */
export interface RepaClient {
  /**
   * Connects and initializes now (later calls do it on demand); resolves with the daemon's
   * `initialize` result. Rejects with `daemon_unavailable` when no daemon is listening.
   */
  connect(): Promise<V1Result<'initialize'>>;
  /**
   * Calls a v1 method and resolves with its validated result; rejects with the daemon's
   * `RepaError`, or `daemon_unavailable` when the connection drops before the answer.
   */
  request<M extends RepaClientMethod>(method: M, params: V1Params<M>): Promise<V1Result<M>>;
  /**
   * Listens to a v1 notification the server sends this client (`run.event` of the runs it
   * subscribed to, `context.progress` of its `context.build` calls, `login.progress` of its
   * `login.start` calls); returns unsubscribe.
   */
  on<N extends V1Notification>(
    event: N,
    listener: (params: V1NotificationParams<N>) => void,
  ): () => void;
  /** Listens to connection drops (the next call reconnects); returns unsubscribe. */
  on(event: 'disconnect', listener: (error: RepaError) => void): () => void;
  /** Closes the connection; pending and later calls reject with `cancelled`. */
  close(): Promise<void>;
}

type Listeners = {
  [N in V1Notification]: Set<(params: V1NotificationParams<N>) => void>;
} & { disconnect: Set<(error: RepaError) => void> };

function isV1Notification(method: string): method is V1Notification {
  return Object.hasOwn(v1Notifications, method);
}

/**
 * Creates a client for the daemon at `target` (its unix socket, or loopback TCP with a token).
 * Contract: the client sends `initialize` itself; after a drop the next call reconnects (up to
 * `reconnectAttempts` tries), initializes again and re-subscribes to the runs it subscribed to with
 * `run.subscribe` that have not ended. Requests are never resent automatically.
 */
export function createRepaClient(
  target: RepaClientTarget,
  options: RepaClientOptions = {},
): RepaClient {
  return new DaemonClient(target, options);
}

interface Connected {
  connection: ClientConnection;
  server: V1Result<'initialize'>;
}

class DaemonClient implements RepaClient {
  readonly #target: RepaClientTarget;
  readonly #options: Required<Omit<RepaClientOptions, 'client'>> &
    Pick<RepaClientOptions, 'client'>;
  readonly #subscriptions = new Set<string>();
  readonly #live = new Set<ClientConnection>();
  readonly #listeners = Object.fromEntries(
    [...Object.keys(v1Notifications), 'disconnect'].map((name) => [name, new Set()]),
  ) as Listeners;
  #connecting: Promise<Connected> | null = null;
  #current: ClientConnection | null = null;
  #everConnected = false;
  #closed = false;

  constructor(target: RepaClientTarget, options: RepaClientOptions) {
    this.#target = target;
    this.#options = {
      client: options.client,
      maxFrameBytes: options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES,
      reconnectAttempts: Math.max(1, options.reconnectAttempts ?? 3),
      reconnectDelayMs: options.reconnectDelayMs ?? 100,
    };
  }

  async connect(): Promise<V1Result<'initialize'>> {
    return (await this.#connected()).server;
  }

  async request<M extends RepaClientMethod>(method: M, params: V1Params<M>): Promise<V1Result<M>> {
    const { connection } = await this.#connected();
    // A subscription is recorded before its answer arrives: a `status` event that ends the run may
    // be decoded in the same read as the answer, and must be able to remove it.
    const subscribed =
      method === 'run.subscribe' ? (params as V1Params<'run.subscribe'>).runId : undefined;
    if (subscribed !== undefined) this.#subscriptions.add(subscribed);
    try {
      const result = parseResult(method, await connection.call(method, params));
      const run = subscribed === undefined ? undefined : (result as V1Result<'run.subscribe'>).run;
      if (run !== undefined && isTerminalRunStatus(run.status))
        this.#subscriptions.delete(run.runId);
      return result;
    } catch (error) {
      if (subscribed !== undefined) this.#subscriptions.delete(subscribed);
      throw error;
    }
  }

  on<N extends V1Notification>(
    event: N,
    listener: (params: V1NotificationParams<N>) => void,
  ): () => void;
  on(event: 'disconnect', listener: (error: RepaError) => void): () => void;
  on(event: keyof Listeners, listener: (params: never) => void): () => void {
    const set = this.#listeners[event] as Set<typeof listener>;
    set.add(listener);
    return () => set.delete(listener);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const reason = closedError();
    await Promise.all([...this.#live].map((connection) => connection.destroy(reason)));
  }

  #connected(): Promise<Connected> {
    if (this.#closed) return Promise.reject(closedError());
    if (this.#connecting === null) {
      const attempt = this.#connectWithRetries();
      this.#connecting = attempt;
      attempt.catch(() => {
        if (this.#connecting === attempt) this.#connecting = null;
      });
    }
    return this.#connecting;
  }

  async #connectWithRetries(): Promise<Connected> {
    // A first connection fails fast (no daemon is a normal answer); a reconnect retries with
    // backoff because the daemon may be restarting.
    const attempts = this.#everConnected ? this.#options.reconnectAttempts : 1;
    let lastError: unknown;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) await delay(this.#options.reconnectDelayMs * 2 ** (attempt - 1));
      if (this.#closed) throw closedError();
      try {
        return await this.#handshake();
      } catch (error) {
        lastError = error;
        if (!RepaError.isInstance(error) || error.code !== 'daemon_unavailable') throw error;
      }
    }
    throw lastError;
  }

  async #handshake(): Promise<Connected> {
    const socket = await openSocket(this.#target);
    const connection = new ClientConnection(socket, this.#options.maxFrameBytes, {
      onNotification: (method, params) => this.#onNotification(method, params),
      onClose: (error) => this.#onClose(connection, error),
    });
    this.#live.add(connection);
    if (this.#closed) {
      await connection.destroy(closedError());
      throw closedError();
    }
    try {
      if ('token' in this.#target) {
        connection.notify(TCP_AUTH_METHOD, { token: this.#target.token });
      }
      const server = parseResult(
        'initialize',
        await connection.call('initialize', {
          protocolVersions: [PROTOCOL_VERSION],
          ...(this.#options.client === undefined ? {} : { client: this.#options.client }),
        }),
      );
      await this.#resubscribe(connection);
      this.#current = connection;
      this.#everConnected = true;
      return { connection, server };
    } catch (error) {
      await connection.destroy(RepaError.fromUnknown(error));
      throw error;
    }
  }

  async #resubscribe(connection: ClientConnection): Promise<void> {
    await Promise.all(
      [...this.#subscriptions].map(async (runId) => {
        try {
          const raw = await connection.call('run.subscribe', { runId });
          const { run } = parseResult('run.subscribe', raw);
          if (isTerminalRunStatus(run.status)) this.#subscriptions.delete(runId);
        } catch (error) {
          if (RepaError.isInstance(error) && error.code === 'daemon_unavailable') throw error;
          // The daemon no longer knows the run (or cannot follow it): stop asking for it.
          this.#subscriptions.delete(runId);
        }
      }),
    );
  }

  #onNotification(method: string, params: unknown): void {
    if (!isV1Notification(method)) return; // Newer notifications are ignored by this client.
    const schema: z.ZodType = v1Notifications[method];
    const parsed = schema.safeParse(params);
    if (!parsed.success) return;
    if (method === 'run.event') {
      const { event, runId } = parsed.data as RunEventNotification;
      if (event.type === 'status' && isTerminalRunStatus(event.status))
        this.#subscriptions.delete(runId);
    }
    emit(this.#listeners[method] as Set<(params: unknown) => void>, parsed.data);
  }

  #onClose(connection: ClientConnection, error: RepaError): void {
    this.#live.delete(connection);
    if (this.#current !== connection) return;
    this.#current = null;
    this.#connecting = null;
    if (!this.#closed) emit(this.#listeners.disconnect, error);
  }
}

function parseResult<M extends V1Method>(method: M, raw: unknown): V1Result<M> {
  const schema: z.ZodType = v1Methods[method].result;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      path: ['result', ...issue.path.map(String)].join('.'),
      message: issue.message,
    }));
    const summary = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
    throw new RepaError('internal', `The daemon sent an invalid result for ${method}: ${summary}`, {
      details: { method, issues },
    });
  }
  return parsed.data as V1Result<M>;
}

function closedError(): RepaError {
  return new RepaError('cancelled', 'This Repa client is closed.', {
    fix: 'Create a new client with createRepaClient to talk to the daemon again.',
  });
}

function emit<T>(listeners: Set<(value: T) => void>, value: T): void {
  for (const listener of [...listeners]) {
    try {
      listener(value);
    } catch (error) {
      // A throwing listener must not break frame decoding; surface it like an EventEmitter would.
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}
