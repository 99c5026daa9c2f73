import { AsyncLocalStorage } from 'node:async_hooks';
import { RepaError, type SaveReceipt } from '@repa/protocol';
import type { ContentSnapshot } from '../space/index.js';
import type { SaveOptions } from '../store/index.js';

/** What one tool call has done so far; Pi's tools reach it through their `*Operations`. */
export interface ToolCallState {
  /** The path or identity the model gave. */
  address: string;
  /** The operation id of a saving call. */
  operationId: string;
  /** How the call's save asks the learner first (absent: it does not) and the call's signal. */
  approval?: Pick<SaveOptions, 'approve' | 'signal'>;
  /** The one snapshot this call read. */
  snapshot?: ContentSnapshot;
  /** Receipts of a save that reached disk. */
  receipts?: SaveReceipt[];
  /** The bytes that save wrote. */
  written?: Buffer;
  /** The first RepaError an operation threw (Pi may re-wrap it in a plain Error). */
  error?: RepaError;
  /** True when the snapshot is an offered skill's file (read-only, untracked). */
  skill?: boolean;
}

const calls = new AsyncLocalStorage<ToolCallState>();

/** Runs `task` as the tool call described by `state`. */
export function runToolCall<T>(state: ToolCallState, task: () => Promise<T>): Promise<T> {
  return calls.run(state, task);
}

/** Runs an operation of the current tool call, remembering the RepaError it throws. */
export async function inToolCall<T>(operation: (state: ToolCallState) => Promise<T>): Promise<T> {
  const state = calls.getStore();
  if (state === undefined) {
    throw new RepaError('internal', 'A content operation ran outside a Repa tool call.');
  }
  try {
    return await operation(state);
  } catch (error) {
    if (RepaError.isInstance(error)) state.error ??= error;
    throw error;
  }
}
