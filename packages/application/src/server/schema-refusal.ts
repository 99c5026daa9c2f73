import type { RepaError } from '@repa/protocol';
import { JSON_RPC_ERROR_CODES, jsonRpcCodeFor } from '@repa/protocol/internal';

/** The errors raised because params did not match their method's schema. */
const refusals = new WeakSet<RepaError>();

/**
 * Marks `error` (an `invalid_request` naming what the method's params schema refused) as a schema
 * refusal, answered with -32602 as the protocol README says; any other `invalid_request` a handler
 * decides is an application error (-32000).
 */
export function schemaRefusal(error: RepaError): RepaError {
  refusals.add(error);
  return error;
}

/** The JSON-RPC numeric code that answers `error`. */
export function answerCodeOf(error: RepaError): number {
  return refusals.has(error) ? JSON_RPC_ERROR_CODES.invalidParams : jsonRpcCodeFor(error.code);
}
