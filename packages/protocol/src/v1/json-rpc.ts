import { z } from 'zod';
import { RepaError, type RepaErrorCode, wireErrorSchema } from '../errors/repa-error.js';

const jsonRpcIdSchema = z.union([z.string(), z.number().int()]);

/** A JSON-RPC 2.0 request (with `id`) or notification (without). */
export const jsonRpcRequestSchema = z.object({
  jsonrpc: z.literal('2.0'),
  /** Absent for notifications. */
  id: jsonRpcIdSchema.optional(),
  method: z.string().min(1),
  params: z.unknown().optional(),
});
/** A JSON-RPC 2.0 request or notification. */
export type JsonRpcRequest = z.infer<typeof jsonRpcRequestSchema>;

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

const NUMERIC_CODES: ReadonlyMap<string, number> = new Map<RepaErrorCode, number>([
  ['invalid_request', -32602],
  ['method_not_found', -32601],
  ['internal', -32603],
]);

/** The JSON-RPC numeric code for a Repa error code (Repa codes travel in `error.data.code`). */
export function jsonRpcCodeFor(code: RepaErrorCode | (string & {})): number {
  return NUMERIC_CODES.get(code) ?? -32000;
}

/** A JSON-RPC error response for `error` answering request `id`. */
export function errorResponse(id: string | number | null, error: RepaError): JsonRpcResponse {
  return {
    jsonrpc: '2.0',
    id,
    error: { code: jsonRpcCodeFor(error.code), message: error.message, data: error.toWire() },
  };
}

/**
 * The `invalid_request` error for a zod failure, naming the path of each bad field
 * (e.g. `params.input.text: Too small`).
 */
export function invalidRequestFromZod(error: z.ZodError, prefix = 'params'): RepaError {
  const issues = error.issues.map((issue) => ({
    path: [prefix, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  const summary = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
  return new RepaError('invalid_request', `Invalid request: ${summary}`, { details: { issues } });
}
