import { connect } from 'node:net';
import { WEB_OPEN_METHOD } from '../client/web-open.js';
import { PROTOCOL_VERSION } from '../v1/common.js';
import { RepaError } from '../v1/errors/repa-error.js';
import { encodeFrame, FrameDecoder } from '../v1/framing.js';
import { jsonRpcResponseSchema } from '../v1/json-rpc.js';

/** Options of {@link openWebApp}. */
export interface OpenWebAppOptions {
  /** The daemon's unix socket. */
  socketPath: string;
  /** The port on 127.0.0.1; 0 (default) for any free one, or the one already served. */
  port?: number;
  /** The client's name and version, sent in `initialize`. */
  client?: { name: string; version: string };
}

/**
 * Asks the daemon on `socketPath` to serve the web app (it keeps serving until it stops) and
 * resolves with the URL to open once: it carries the per-launch secret.
 */
export function openWebApp(options: OpenWebAppOptions): Promise<{ url: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ path: options.socketPath });
    const decoder = new FrameDecoder({ maxFrameBytes: 1024 * 1024 });
    let settled = false;
    const settle = (error: RepaError | undefined, url?: string): void => {
      if (settled) return;
      settled = true;
      socket.destroy();
      if (error) reject(error);
      else resolve({ url: url as string });
    };
    socket.once('error', (error) =>
      settle(
        new RepaError('daemon_unavailable', `Could not reach the daemon: ${error.message}`, {
          fix: 'Start the daemon (repa daemon start).',
          cause: error,
        }),
      ),
    );
    socket.once('close', () =>
      settle(new RepaError('daemon_unavailable', 'The daemon closed the connection.')),
    );
    socket.once('connect', () => {
      socket.write(
        encodeFrame({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersions: [PROTOCOL_VERSION],
            ...(options.client ? { client: options.client } : {}),
          },
        }),
      );
    });
    socket.on('data', (chunk: Buffer) => {
      for (const frame of decoder.push(chunk)) {
        const response = frame.ok ? jsonRpcResponseSchema.safeParse(frame.value) : undefined;
        if (!response?.success) {
          settle(new RepaError('internal', 'The daemon sent a malformed answer.'));
          return;
        }
        const answer = response.data;
        if ('error' in answer) {
          const error = RepaError.fromWire(answer.error.data);
          settle(
            error.code === 'method_not_found'
              ? new RepaError('method_not_found', 'This daemon does not serve the web app.', {
                  fix: 'Restart the daemon with this version of Repa (repa daemon stop), then run repa web again.',
                })
              : error,
          );
        } else if (answer.id === 1) {
          socket.write(
            encodeFrame({
              jsonrpc: '2.0',
              id: 2,
              method: WEB_OPEN_METHOD,
              params: { port: options.port ?? 0 },
            }),
          );
        } else {
          settle(undefined, (answer.result as { url: string }).url);
        }
      }
    });
  });
}
