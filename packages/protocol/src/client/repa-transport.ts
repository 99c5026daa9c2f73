import type { RepaError } from '../v1/errors/repa-error.js';

/**
 * One connection to a Repa daemon carrying JSON-RPC 2.0 messages, one message per frame (a line of
 * the unix socket, a WebSocket message); the shape of the MCP SDK's `Transport`. The client sets
 * `onmessage` and `onclose`, then calls `start`.
 * Contract: after `start` resolved, `onclose` is called exactly once, after the last `onmessage`,
 * whether the daemon, the network or `close()` ended the connection. A `start` that rejects calls
 * neither handler.
 */
export interface RepaTransport {
  /** Opens the connection; rejects with `daemon_unavailable` when no daemon answers. */
  start(): Promise<void>;
  /** Sends one message; dropped once the connection closed (`onclose` says so). */
  send(message: unknown): void;
  /** Closes the connection; `onclose` follows. */
  close(): void;
  /** Receives each message the daemon sent, parsed from its frame. */
  onmessage?: ((message: unknown) => void) | undefined;
  /**
   * Learns that the connection closed; with the error that closed it when the transport knows one
   * (a frame over its limit, a frame that is not JSON).
   */
  onclose?: ((error?: RepaError) => void) | undefined;
}

/** Makes a new, unstarted transport; the client calls it again for each reconnection. */
export type RepaTransportFactory = () => RepaTransport;
