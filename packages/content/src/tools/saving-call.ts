import { approvalOf } from './tool-approvals.js';
import type { ToolCallState } from './tool-call-context.js';
import { cancelledCall, toolError } from './tool-errors.js';
import { type ContentToolsOptions, operationIdFrom } from './tool-options.js';

/**
 * The state a call of the saving tool `toolName` on `address` starts with: a new operation id,
 * and how its save asks the learner first. Throws `cancelled` for a call cancelled before it began.
 */
export function savingCallState(
  options: ContentToolsOptions,
  toolName: string,
  toolCallId: string,
  address: string,
  signal: AbortSignal | undefined,
): ToolCallState {
  if (signal?.aborted) throw toolError(cancelledCall());
  return {
    address,
    operationId: operationIdFrom(options),
    approval: approvalOf(options, toolName, toolCallId, signal),
  };
}
