import type { z } from 'zod';
import { PROTOCOL_VERSION } from '../v1/common.js';
import { RepaError } from '../v1/errors/repa-error.js';
import {
  type V1Method,
  type V1Notification,
  type V1NotificationParams,
  type V1Params,
  type V1Result,
  v1Methods,
  v1Notifications,
} from '../v1/methods.js';
import { isTerminalRunStatus } from '../v1/runs.js';
import type { RunEventNotification, RunInfo } from '../v1/wire-types.generated.js';
import { ClientConnection } from './client-connection.js';
import type { RepaTransportFactory } from './repa-transport.js';
import {
  type FollowerListener,
  type ResumeOutcome,
  type RunFollower,
  startFollowing,
} from './run-follower.js';

/** Options of {@link createRepaClient}. */
export interface RepaClientOptions {
  /** The client's name and version, sent in `initialize` for the daemon's logs. */
  client?: { name: string; version: string };
  /**
   * When the client connects again after the connection dropped. `on-demand` (the default): the
   * next call does, and a first connection is tried once (no daemon is a normal answer).
   * `always`: at once after a drop, and every connection (the first included) is tried until it
   * succeeds, as a page showing the daemon's state needs.
   */
  reconnect?: 'on-demand' | 'always';
  /** Connection attempts when reconnecting. Default 3 (`on-demand`), unlimited (`always`). */
  reconnectAttempts?: number;
  /** Wait before the second attempt, doubled before each further one. Default 100 ms. */
  reconnectDelayMs?: number;
  /** The longest wait between two attempts. Default: no limit. */
  reconnectMaxDelayMs?: number;
}

/** A v1 method a client calls (everything but `initialize`, which the client sends itself). */
export type RepaClientMethod = Exclude<V1Method, 'initialize'>;

/** A typed connection to the Repa daemon that reconnects. */
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
   * Follows one run: `start` sends `run.submit`, `run.retry`, `run.resume` or `run.subscribe`
   * (each subscribes this connection), and the follower yields the run's events from acceptance to
   * its terminal status. See {@link RunFollower}.
   */
  followRun<R extends { run: RunInfo }>(start: () => Promise<R>): RunFollower<R>;
  /**
   * Listens to a v1 notification the server sends this client (`run.event` of the runs it
   * subscribed to, `context.progress` of its `context.build` calls, `login.progress` of its
   * `login.start` calls); returns unsubscribe.
   */
  on<N extends V1Notification>(
    event: N,
    listener: (params: V1NotificationParams<N>) => void,
  ): () => void;
  /** Listens to each connection made (the first and every reconnection); returns unsubscribe. */
  on(event: 'connect', listener: (server: V1Result<'initialize'>) => void): () => void;
  /** Listens to connection drops; returns unsubscribe. */
  on(event: 'disconnect', listener: (error: RepaError) => void): () => void;
  /** Closes the connection; pending and later calls reject with `cancelled`. */
  close(): Promise<void>;
}

type Listeners = {
  [N in V1Notification]: Set<(params: V1NotificationParams<N>) => void>;
} & {
  connect: Set<(server: V1Result<'initialize'>) => void>;
  disconnect: Set<(error: RepaError) => void>;
};

/** The methods that subscribe this connection to the run they answer with. */
const SUBSCRIBING = new Set<string>(['run.submit', 'run.retry', 'run.resume', 'run.subscribe']);

function isV1Notification(method: string): method is V1Notification {
  return Object.hasOwn(v1Notifications, method);
}

/**
 * Creates a client that reaches the daemon through `transport` (`webSocketTransport(url)` in a
 * page; `socketTransport(target)` from `@repa/protocol/node`). Every result and notification is
 * checked against the v1 schemas.
 * Contract: the client sends `initialize` itself; after a drop it reconnects (see
 * {@link RepaClientOptions.reconnect}), initializes again and re-subscribes to the runs this
 * connection was subscribed to (by `run.submit`, `run.retry`, `run.resume` or `run.subscribe`)
 * that have not ended. Requests are never resent automatically.
 */
export function createRepaClient(
  transport: RepaTransportFactory,
  options: RepaClientOptions = {},
): RepaClient {
  return new DaemonClient(transport, options);
}

interface Connected {
  connection: ClientConnection;
  server: V1Result<'initialize'>;
}

class DaemonClient implements RepaClient {
  readonly #transport: RepaTransportFactory;
  readonly #client: RepaClientOptions['client'];
  readonly #always: boolean;
  readonly #attempts: number;
  readonly #delayMs: number;
  readonly #maxDelayMs: number;
  readonly #subscriptions = new Set<string>();
  readonly #live = new Set<ClientConnection>();
  readonly #listeners = Object.fromEntries(
    [...Object.keys(v1Notifications), 'connect', 'disconnect'].map((name) => [name, new Set()]),
  ) as Listeners;
  readonly #followers = new Set<FollowerListener>();
  #connecting: Promise<Connected> | null = null;
  #current: ClientConnection | null = null;
  #everConnected = false;
  #closed = false;

  constructor(transport: RepaTransportFactory, options: RepaClientOptions) {
    this.#transport = transport;
    this.#client = options.client;
    this.#always = options.reconnect === 'always';
    this.#attempts = Math.max(
      1,
      options.reconnectAttempts ?? (this.#always ? Number.POSITIVE_INFINITY : 3),
    );
    this.#delayMs = options.reconnectDelayMs ?? 100;
    this.#maxDelayMs = options.reconnectMaxDelayMs ?? Number.POSITIVE_INFINITY;
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
      const run = SUBSCRIBING.has(method) ? (result as { run: RunInfo }).run : undefined;
      if (run !== undefined) {
        if (isTerminalRunStatus(run.status)) this.#subscriptions.delete(run.runId);
        else if (subscribed === undefined) this.#subscriptions.add(run.runId);
      }
      return result;
    } catch (error) {
      if (subscribed !== undefined) this.#subscriptions.delete(subscribed);
      throw error;
    }
  }

  followRun<R extends { run: RunInfo }>(start: () => Promise<R>): RunFollower<R> {
    return startFollowing(
      {
        reconnect: () => this.connect(),
        subscribe: async (runId) => (await this.request('run.subscribe', { runId })).run,
        cancel: (runId) => this.request('run.cancel', { runId }),
        listen: (listener) => {
          this.#followers.add(listener);
          return () => this.#followers.delete(listener);
        },
      },
      start,
    );
  }

  on<N extends V1Notification>(
    event: N,
    listener: (params: V1NotificationParams<N>) => void,
  ): () => void;
  on(event: 'connect', listener: (server: V1Result<'initialize'>) => void): () => void;
  on(event: 'disconnect', listener: (error: RepaError) => void): () => void;
  on(event: keyof Listeners, listener: (params: never) => void): () => void {
    const set = this.#listeners[event] as Set<typeof listener>;
    set.add(listener);
    return () => set.delete(listener);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const reason = closedError();
    for (const follower of [...this.#followers]) follower.closed(reason);
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
    // A first connection fails fast (no daemon is a normal answer) unless the client keeps its
    // connection up; a reconnect retries with backoff because the daemon may be restarting.
    const attempts = this.#everConnected || this.#always ? this.#attempts : 1;
    let lastError: unknown;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) {
        const wait = Math.min(this.#delayMs * 2 ** (attempt - 1), this.#maxDelayMs);
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
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
    const transport = this.#transport();
    const connection = new ClientConnection(transport, {
      onNotification: (method, params) => this.#onNotification(method, params),
      onClose: (error) => this.#onClose(connection, error),
    });
    await transport.start();
    this.#live.add(connection);
    if (this.#closed) {
      await connection.destroy(closedError());
      throw closedError();
    }
    try {
      const server = parseResult(
        'initialize',
        await connection.call('initialize', {
          protocolVersions: [PROTOCOL_VERSION],
          ...(this.#client === undefined ? {} : { client: this.#client }),
        }),
      );
      await this.#resubscribe(connection);
      this.#current = connection;
      this.#everConnected = true;
      emit(this.#listeners.connect, server);
      return { connection, server };
    } catch (error) {
      await connection.destroy(RepaError.fromUnknown(error));
      throw error;
    }
  }

  async #resubscribe(connection: ClientConnection): Promise<void> {
    await Promise.all(
      [...this.#subscriptions].map(async (runId) => {
        let outcome: ResumeOutcome;
        try {
          const raw = await connection.call('run.subscribe', { runId });
          const { run } = parseResult('run.subscribe', raw);
          if (isTerminalRunStatus(run.status)) this.#subscriptions.delete(runId);
          outcome = { runId, run };
        } catch (error) {
          if (RepaError.isInstance(error) && error.code === 'daemon_unavailable') throw error;
          // The daemon no longer knows the run (or cannot follow it): stop asking for it.
          this.#subscriptions.delete(runId);
          outcome = { runId, error: RepaError.fromUnknown(error) };
        }
        for (const follower of [...this.#followers]) follower.resumed(outcome);
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
      for (const follower of [...this.#followers])
        follower.event(parsed.data as RunEventNotification);
    }
    emit(this.#listeners[method] as Set<(params: unknown) => void>, parsed.data);
  }

  #onClose(connection: ClientConnection, error: RepaError): void {
    this.#live.delete(connection);
    if (this.#current !== connection) return;
    this.#current = null;
    this.#connecting = null;
    if (this.#closed) return;
    emit(this.#listeners.disconnect, error);
    for (const follower of [...this.#followers]) follower.disconnect();
    if (this.#always) this.#connected().catch(() => {});
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
