import { createHash, timingSafeEqual } from 'node:crypto';
import {
  PROTOCOL_VERSION,
  RepaError,
  SUPPORTED_PROTOCOL_VERSIONS,
  type V1Result,
} from '@repa/protocol';
import {
  type DecodedFrame,
  errorResponse,
  JSON_RPC_ERROR_CODES,
  type JsonRpcResponse,
  TCP_AUTH_METHOD,
} from '@repa/protocol/internal';
import {
  invalidRequestFromZod,
  jsonRpcRequestSchema,
  tcpAuthParamsSchema,
  v1Methods,
} from '@repa/protocol/schemas';
import { schemaRefusal } from './schema-refusal.js';

/**
 * The answer to `initialize`: v1 and the server's name, version and model. `invalid_request` for
 * params without `protocolVersions`, `unsupported_version` when v1 is not among them; both list
 * the versions this daemon speaks.
 */
export function initializeResult(
  rawParams: unknown,
  serverInfo: V1Result<'initialize'>['server'],
): V1Result<'initialize'> {
  const params = v1Methods.initialize.params.safeParse(rawParams ?? {});
  const supported = [...SUPPORTED_PROTOCOL_VERSIONS];
  if (!params.success) {
    // As the JSON Schema says: `protocolVersions` is required and not empty. The answer still
    // lists the versions this daemon speaks, so a client can offer one of them.
    const error = invalidRequestFromZod(params.error, rawParams ?? {});
    throw schemaRefusal(
      new RepaError('invalid_request', error.message, {
        fix: `Send initialize with protocolVersions listing the versions you speak (this daemon supports ${supported.join(', ')}).`,
        details: { ...error.details, supported },
      }),
    );
  }
  const requested = params.data.protocolVersions;
  if (!requested.includes(PROTOCOL_VERSION)) {
    throw new RepaError(
      'unsupported_version',
      `This daemon speaks none of ${requested.join(', ')}; it supports ${supported.join(', ')}.`,
      { details: { supported, requested } },
    );
  }
  return { protocolVersion: PROTOCOL_VERSION, server: serverInfo };
}

/**
 * The first frame of a TCP connection, checked: the id of an auth frame carrying the listener's
 * `token`, or the error response that refuses the connection (a malformed frame is
 * `invalid_request` or a parse error, anything else `unauthorized`).
 */
export function checkAuthFrame(
  decoded: DecodedFrame,
  token: string | undefined,
): { id: string | number | undefined } | { refusal: JsonRpcResponse } {
  if (!decoded.ok) {
    const code = decoded.parseError
      ? JSON_RPC_ERROR_CODES.parseError
      : JSON_RPC_ERROR_CODES.invalidRequest;
    return { refusal: errorResponse(idOf(decoded.value), decoded.error, code) };
  }
  const frame = jsonRpcRequestSchema.safeParse(decoded.value);
  if (!frame.success) {
    // Not JSON-RPC at all (e.g. an HTTP request): a malformed request, not a failed login.
    const error = invalidRequestFromZod(frame.error, decoded.value, 'message');
    return {
      refusal: errorResponse(idOf(decoded.value), error, JSON_RPC_ERROR_CODES.invalidRequest),
    };
  }
  const params = tcpAuthParamsSchema.safeParse(frame.data.params);
  if (
    frame.data.method === TCP_AUTH_METHOD &&
    params.success &&
    token !== undefined &&
    sameToken(params.data.token, token)
  ) {
    return { id: frame.data.id };
  }
  const error = new RepaError(
    'unauthorized',
    frame.data.method === TCP_AUTH_METHOD
      ? `The ${TCP_AUTH_METHOD} frame did not carry this TCP listener's token.`
      : `This TCP listener needs its token before ${frame.data.method}: send a ${TCP_AUTH_METHOD} frame with params.token first.`,
    { fix: 'Connect with createRepaClient({ host, port, token }) using the daemon’s TCP token.' },
  );
  return { refusal: errorResponse(frame.data.id ?? null, error) };
}

/** The id of a JSON-RPC message, or null when it has no valid one. */
export function idOf(value: unknown): string | number | null {
  if (typeof value !== 'object' || value === null || !('id' in value)) return null;
  const { id } = value as { id: unknown };
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null;
}

function sameToken(given: string, expected: string): boolean {
  const digest = (text: string): Buffer => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
