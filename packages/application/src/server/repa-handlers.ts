import type {
  V1Method,
  V1Notification,
  V1NotificationParams,
  V1Params,
  V1Result,
} from '@repa/protocol';

/** A v1 method the application answers (the server answers `initialize` itself). */
export type RepaHandledMethod = Exclude<V1Method, 'initialize'>;

/** How a client reached the daemon: its unix socket, loopback TCP, or the web app's WebSocket. */
export type RepaTransport = 'unix' | 'tcp' | 'web';

/** What a handler knows about the connection that called it. */
export interface ConnectionContext {
  /** Stable id of this connection, for {@link RepaServer.notifyConnection}. */
  readonly connectionId: string;
  /** How the client reached the daemon. */
  readonly transport: RepaTransport;
  /**
   * Sends a notification to this connection; false when it is closed or not initialized.
   * Throws `internal` when `params` do not match the notification's schema.
   */
  notify<N extends V1Notification>(method: N, params: V1NotificationParams<N>): boolean;
  /**
   * Calls `callback` once when this connection closes (at once if it already has); returns a
   * function that removes the callback.
   */
  onClose(callback: () => void): () => void;
}

/**
 * Answers one v1 method. `params` are already validated; throw a `RepaError` to answer with it
 * (passed through unchanged); any other error is answered as `internal`.
 */
export type RepaHandler<M extends RepaHandledMethod> = (
  params: V1Params<M>,
  context: ConnectionContext,
) => Promise<V1Result<M>>;

/** The handler of every v1 method the application implements; a missing one is `method_not_found`. */
export type RepaHandlers = { [M in RepaHandledMethod]?: RepaHandler<M> };

/**
 * The handlers of one namespace's v1 methods, every one of them: `run` for `run.*`, `doctor` for
 * the method `doctor`.
 */
export type NamespaceHandlers<N extends string> = {
  [M in RepaHandledMethod as M extends N | `${N}.${string}` ? M : never]: RepaHandler<M>;
};
