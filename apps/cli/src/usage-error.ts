import { RepaError } from '@repa/protocol';

const USAGE = Symbol.for('repa.cli.usage');

/** A mistake in the command line itself: `invalid_request`, exit code 2. */
export function usageError(message: string, fix: string): RepaError {
  const error = new RepaError('invalid_request', message, { fix });
  Object.defineProperty(error, USAGE, { value: true });
  return error;
}

/** True for an error made by {@link usageError}. */
export function isUsageError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && USAGE in error;
}
