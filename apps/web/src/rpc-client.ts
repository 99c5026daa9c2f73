import type {
  RunEventNotification,
  RunInfo,
  V1MethodTypes,
  V1NotificationTypes,
  WireError,
} from '@repa/protocol';

/** A v1 method the page calls (the client sends `initialize` itself). */
export type Method = Exclude<keyof V1MethodTypes, 'initialize'>;

/** The state of the WebSocket bridge. */
export type ConnectionState = 'connecting' | 'open' | 'reconnecting';

/** An error the daemon answered (its stable `code`, message and fix), or a lost connection. */
export class RpcError extends Error {
  readonly code: string;
  readonly fix: string | undefined;

  constructor(error: Partial<WireError> & { code: string; message: string }) {
    super(error.message);
    this.code = error.code;
    this.fix = typeof error.fix === 'string' ? error.fix : undefined;
  }
}

interface Pending {
  resolve: (result: unknown) => void;
  reject: (error: RpcError) => void;
}

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled', 'interrupted']);

/**
 * Protocol v1 over the daemon's WebSocket bridge: the same JSON-RPC messages as the socket, one per
 * message. Reconnects by itself after a drop (the daemon restarted), initializes again and
 * re-subscribes to the runs it follows; the run as the daemon has it then is handed to
 * `onResubscribed` (e.g. `interrupted`). Requests in flight when the connection drops reject with
 * `daemon_unavailable`; they are never resent automatically.
 */
export class RpcClient {
  readonly #url: string;
  readonly #pending = new Map<number, Pending>();
  readonly #followed = new Set<string>();
  readonly #eventListeners = new Set<(event: RunEventNotification) => void>();
  readonly #progressListeners = new Set<(event: V1NotificationTypes['context.progress']) => void>();
  readonly #stateListeners = new Set<(state: ConnectionState) => void>();
  readonly #resubscribedListeners = new Set<(run: RunInfo) => void>();
  #socket: WebSocket | undefined;
  #ready: Promise<void> | undefined;
  #nextId = 1;
  #retryMs = 250;
  #state: ConnectionState = 'connecting';

  constructor(url: string) {
    this.#url = url;
  }

  /** The bridge's state now. */
  get state(): ConnectionState {
    return this.#state;
  }

  /** Calls a v1 method and resolves with its result, or rejects with the daemon's error. */
  async request<M extends Method>(
    method: M,
    params: V1MethodTypes[M]['params'],
  ): Promise<V1MethodTypes[M]['result']> {
    await this.#connected();
    const result = (await this.#call(method, params)) as V1MethodTypes[M]['result'];
    const run = (result as { run?: RunInfo }).run;
    if (
      (method === 'run.submit' || method === 'run.retry' || method === 'run.subscribe') &&
      run &&
      !TERMINAL.has(run.status)
    ) {
      this.#followed.add(run.runId);
    }
    return result;
  }

  /** Listens to `run.event` notifications; returns unsubscribe. */
  onRunEvent(listener: (event: RunEventNotification) => void): () => void {
    this.#eventListeners.add(listener);
    return () => this.#eventListeners.delete(listener);
  }

  /** Listens to `context.progress` notifications; returns unsubscribe. */
  onContextProgress(
    listener: (event: V1NotificationTypes['context.progress']) => void,
  ): () => void {
    this.#progressListeners.add(listener);
    return () => this.#progressListeners.delete(listener);
  }

  /** Listens to the bridge's state; returns unsubscribe. */
  onState(listener: (state: ConnectionState) => void): () => void {
    this.#stateListeners.add(listener);
    return () => this.#stateListeners.delete(listener);
  }

  /** Listens to the runs re-subscribed after a reconnect, as the daemon has them now. */
  onResubscribed(listener: (run: RunInfo) => void): () => void {
    this.#resubscribedListeners.add(listener);
    return () => this.#resubscribedListeners.delete(listener);
  }

  #setState(state: ConnectionState): void {
    this.#state = state;
    for (const listener of this.#stateListeners) listener(state);
  }

  #connected(): Promise<void> {
    this.#ready ??= this.#open();
    return this.#ready;
  }

  /** Opens the WebSocket (retrying with back-off until it opens) and initializes. */
  async #open(): Promise<void> {
    for (;;) {
      try {
        await this.#openOnce();
        this.#retryMs = 250;
        this.#setState('open');
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, this.#retryMs));
        this.#retryMs = Math.min(this.#retryMs * 2, 2_000);
      }
    }
  }

  async #openOnce(): Promise<void> {
    const socket = new WebSocket(this.#url);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('open', () => resolve(), { once: true });
      socket.addEventListener('close', () => reject(new Error('closed')), { once: true });
    });
    this.#socket = socket;
    socket.addEventListener('message', (message) => this.#onMessage(String(message.data)));
    socket.addEventListener('close', () => this.#onClose(socket), { once: true });
    try {
      await this.#call('initialize', {
        protocolVersions: ['v1'],
        client: { name: 'repa-web', version: '0.0.0' },
      });
    } catch (error) {
      this.#socket = undefined;
      socket.close();
      throw error;
    }
    const followed = [...this.#followed];
    void Promise.all(
      followed.map(async (runId) => {
        try {
          const { run } = (await this.#call('run.subscribe', { runId })) as { run: RunInfo };
          if (TERMINAL.has(run.status)) this.#followed.delete(runId);
          for (const listener of this.#resubscribedListeners) listener(run);
        } catch {
          this.#followed.delete(runId);
        }
      }),
    );
  }

  #call(method: string, params: unknown): Promise<unknown> {
    const socket = this.#socket;
    if (socket === undefined || socket.readyState !== WebSocket.OPEN) {
      return Promise.reject(
        new RpcError({ code: 'daemon_unavailable', message: 'Not connected to the daemon.' }),
      );
    }
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }

  #onMessage(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    for (const item of Array.isArray(message) ? message : [message]) this.#onItem(item);
  }

  #onItem(item: unknown): void {
    if (typeof item !== 'object' || item === null) return;
    const message = item as {
      id?: number | string | null;
      method?: string;
      params?: unknown;
      result?: unknown;
      error?: { message: string; data?: WireError };
    };
    if (message.method === 'run.event') {
      const event = message.params as RunEventNotification;
      if (event.event.type === 'status' && TERMINAL.has(event.event.status)) {
        this.#followed.delete(event.runId);
      }
      for (const listener of this.#eventListeners) listener(event);
      return;
    }
    if (message.method === 'context.progress') {
      const event = message.params as V1NotificationTypes['context.progress'];
      for (const listener of this.#progressListeners) listener(event);
      return;
    }
    if (message.method !== undefined) return; // A notification this page does not know.
    const error = message.error
      ? new RpcError(message.error.data ?? { code: 'internal', message: message.error.message })
      : undefined;
    if (message.id === null || message.id === undefined) {
      if (error) this.#rejectAll(error);
      return;
    }
    const pending = typeof message.id === 'number' ? this.#pending.get(message.id) : undefined;
    if (!pending) return;
    this.#pending.delete(message.id as number);
    if (error) pending.reject(error);
    else pending.resolve(message.result);
  }

  #rejectAll(error: RpcError): void {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const request of pending) request.reject(error);
  }

  #onClose(socket: WebSocket): void {
    if (this.#socket !== socket) return;
    this.#socket = undefined;
    this.#rejectAll(
      new RpcError({
        code: 'daemon_unavailable',
        message: 'The connection to the daemon closed.',
        fix: 'It reconnects by itself; send again once it is back.',
      }),
    );
    this.#setState('reconnecting');
    this.#ready = this.#open();
  }
}
