import { RepaError } from '../v1/errors/repa-error.js';
import type { RepaTransport, RepaTransportFactory } from './repa-transport.js';

/**
 * Protocol v1 over the daemon's WebSocket bridge (`repa web`'s `/rpc`): the same JSON-RPC messages
 * as the socket, one per WebSocket message. Uses the platform's `WebSocket` (a browser's, or
 * Node's global one); the page's cookie authenticates it.
 */
export function webSocketTransport(url: string): RepaTransportFactory {
  return () => new WebSocketTransport(url);
}

class WebSocketTransport implements RepaTransport {
  readonly #url: string;
  #socket: WebSocket | undefined;
  #closeReason: RepaError | undefined;
  onmessage?: ((message: unknown) => void) | undefined;
  onclose?: ((error?: RepaError) => void) | undefined;

  constructor(url: string) {
    this.#url = url;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(this.#url);
      const refused = () =>
        reject(
          new RepaError('daemon_unavailable', `No Repa daemon answered at ${this.#url}.`, {
            fix: 'Start the daemon (repa daemon start) and open the page again with repa web.',
            details: { address: this.#url },
          }),
        );
      // A browser fires error then close on a refused connection; Node's WebSocket only error.
      socket.addEventListener('error', refused, { once: true });
      socket.addEventListener('close', refused, { once: true });
      socket.addEventListener(
        'open',
        () => {
          socket.removeEventListener('error', refused);
          socket.removeEventListener('close', refused);
          this.#socket = socket;
          socket.addEventListener('message', (message) => this.#onMessage(message.data));
          socket.addEventListener('close', () => this.onclose?.(this.#closeReason), {
            once: true,
          });
          resolve();
        },
        { once: true },
      );
    });
  }

  send(message: unknown): void {
    if (this.#socket?.readyState === WebSocket.OPEN) this.#socket.send(JSON.stringify(message));
  }

  close(): void {
    this.#socket?.close();
  }

  #onMessage(data: unknown): void {
    let message: unknown;
    try {
      message = JSON.parse(String(data));
    } catch {
      this.#closeReason = new RepaError('internal', 'The daemon sent malformed JSON.');
      this.close();
      return;
    }
    // A batch's answers come as one array.
    for (const item of Array.isArray(message) ? message : [message]) this.onmessage?.(item);
  }
}
