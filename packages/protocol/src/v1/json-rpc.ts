import { z } from 'zod';
import { RepaError, type RepaErrorCode, wireErrorSchema } from './errors/repa-error.js';
import { issueWords } from './issue-words.js';

const jsonRpcIdSchema = z.union([z.string(), z.number().int()]);

/** A JSON-RPC 2.0 request (with `id`) or notification (without); closed like all client input. */
export const jsonRpcRequestSchema = z.strictObject({
  jsonrpc: z.literal('2.0').describe('Always `2.0`.'),
  id: jsonRpcIdSchema.optional().describe('Absent for notifications.'),
  method: z.string().min(1).describe("The method's name."),
  params: z.unknown().optional().describe("The method's params."),
});

/** A JSON-RPC 2.0 error object; `data` carries the Repa error unchanged. */
export const jsonRpcErrorSchema = z.object({
  code: z.number().int(),
  message: z.string(),
  data: wireErrorSchema,
});

/** A JSON-RPC 2.0 response. */
export const jsonRpcResponseSchema = z.union([
  z.object({ jsonrpc: z.literal('2.0'), id: jsonRpcIdSchema, result: z.unknown() }),
  z.object({
    jsonrpc: z.literal('2.0'),
    id: jsonRpcIdSchema.nullable(),
    error: jsonRpcErrorSchema,
  }),
]);
/** A JSON-RPC 2.0 response. */
export type JsonRpcResponse = z.infer<typeof jsonRpcResponseSchema>;

/** The JSON-RPC 2.0 numeric error codes a v1 server answers with (the Repa code is in `data.code`). */
export const JSON_RPC_ERROR_CODES = {
  /** The frame is not valid JSON (or not UTF-8). */
  parseError: -32700,
  /** The frame is JSON but not a Request object (or an empty batch). */
  invalidRequest: -32600,
  /** No such method. */
  methodNotFound: -32601,
  /** The method's params do not match its schema. */
  invalidParams: -32602,
  /** A Repa error the server raised while handling the call (see `data.code`). */
  serverError: -32000,
  /** A bug in the server. */
  internalError: -32603,
} as const;

const NUMERIC_CODES: ReadonlyMap<string, number> = new Map<RepaErrorCode, number>([
  ['method_not_found', JSON_RPC_ERROR_CODES.methodNotFound],
  ['internal', JSON_RPC_ERROR_CODES.internalError],
]);

/**
 * The JSON-RPC numeric code for a Repa error code (Repa codes travel in `error.data.code`): every
 * code but `method_not_found` and `internal` is a server error (-32000), `invalid_request` included;
 * the server answers params its method's schema refuses with invalid params (-32602) itself.
 */
export function jsonRpcCodeFor(code: RepaErrorCode | (string & {})): number {
  return NUMERIC_CODES.get(code) ?? JSON_RPC_ERROR_CODES.serverError;
}

/**
 * A JSON-RPC error response for `error` answering request `id`; `numericCode` overrides the code
 * {@link jsonRpcCodeFor} gives (parse errors and invalid Request objects).
 */
export function errorResponse(
  id: string | number | null,
  error: RepaError,
  numericCode: number = jsonRpcCodeFor(error.code),
): JsonRpcResponse {
  return {
    jsonrpc: '2.0',
    id,
    error: { code: numericCode, message: error.message, data: error.toWire() },
  };
}

/**
 * The `invalid_request` error for a zod failure of `input`: each bad field in words, named as the
 * caller knows it (e.g. `` `tools.bash` must be one of `off` or `sandboxed`, not `on` ``), and in
 * `details.issues` by its path (e.g. `params.value`).
 */
export function invalidRequestFromZod(
  error: z.ZodError,
  input: unknown,
  prefix = 'params',
): RepaError {
  const issues = error.issues.map((issue) => ({
    path: [prefix, ...issue.path.map(String)].join('.'),
    message: issueWords(issue, input),
  }));
  const summary = issues.map((issue) => issue.message).join('; ');
  const message = /[.!?]$/.test(summary) ? summary : `${summary}.`;
  return new RepaError('invalid_request', message, { details: { issues } });
}
