import { z } from 'zod';

/**
 * The method of the auth frame that must open every loopback TCP connection to the daemon.
 * Contract: a transport step, not a v1 method. It travels as a JSON-RPC notification (no `id`, no
 * answer on success) before `initialize`; a missing or wrong token, or any other request first, is
 * answered with an `unauthorized` error (`id: null`) and the connection is closed. The `rpc.` prefix is the one
 * JSON-RPC 2.0 reserves for such extensions, so it never collides with a protocol method.
 */
export const TCP_AUTH_METHOD = 'rpc.auth';

/** The params of the TCP auth frame. */
export const tcpAuthParamsSchema = z.object({
  /** The token the daemon's TCP listener was started with. */
  token: z.string().min(1),
});
