import { RepaError } from '../v1/errors/repa-error.js';
import { jsonRpcResponseSchema } from '../v1/json-rpc.js';
import type { RepaTransport } from './repa-transport.js';

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

/**
 * One open connection over a transport: writes requests, matches responses to them by id and hands
 * notifications on.
 * Contract: every request either settles with its response or rejects once the connection closes.
 */
export class ClientConnection {
  readonly #transport: RepaTransport;
  readonly #events: ConnectionEvents;
  readonly #pending = new Map<number, Pending>();
  readonly #closedPromise: Promise<void>;
  #nextId = 1;
  #closeReason: RepaError | null = null;
  #closed = false;

  /** Takes over the transport's handlers; start the transport after this. */
  constructor(transport: RepaTransport, events: ConnectionEvents) {
    this.#transport = transport;
    this.#events = events;
    transport.onmessage = (message) => this.#onMessage(message);
    this.#closedPromise = new Promise((resolve) => {
      transport.onclose = (error) => {
        if (this.#closed) return;
        this.#closed = true;
        const reason =
          this.#closeReason ??
          error ??
          new RepaError('daemon_unavailable', 'The connection to the daemon closed.', {
            fix: 'Call again: the client reconnects. run.submit and run.retry are idempotent by requestId.',
          });
        this.#rejectAll(reason);
        this.#events.onClose(reason);
        resolve();
      };
    });
  }

  /** Sends a request and resolves with its raw result, or rejects with the server's error. */
  call(method: string, params: unknown): Promise<unknown> {
    if (this.#closed || this.#closeReason !== null) {
      return Promise.reject(
        this.#closeReason ??
          new RepaError('daemon_unavailable', `The connection closed before ${method} was sent.`),
      );
    }
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { method, resolve, reject });
      this.#transport.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  /** Sends a notification (no answer). */
  notify(method: string, params: unknown): void {
    if (!this.#closed) this.#transport.send({ jsonrpc: '2.0', method, params });
  }

  /** Closes the connection; pending requests reject with `reason`. Resolves once closed. */
  destroy(reason: RepaError): Promise<void> {
    this.#closeReason ??= reason;
    this.#transport.close();
    return this.#closedPromise;
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
