import { RepaError } from '../v1/errors/repa-error.js';

/** The `RepaError` `promise` rejects with; fails the test when it resolves or rejects otherwise. */
export async function repaErrorOf(promise: Promise<unknown>): Promise<RepaError> {
  try {
    await promise;
  } catch (error) {
    if (RepaError.isInstance(error)) return error;
    throw new Error(`expected a RepaError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected a RepaError, but the promise resolved');
}
