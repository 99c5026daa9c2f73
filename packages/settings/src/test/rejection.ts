import { RepaError } from '@repa/protocol';

/** The RepaError the promise rejects with (any other outcome fails the test). */
export async function rejection(promise: Promise<unknown>): Promise<RepaError> {
  try {
    await promise;
  } catch (error) {
    if (RepaError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}
