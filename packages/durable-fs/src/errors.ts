import { RepaError } from '@repa/protocol';

/** The errno code of a Node file-system error (`'ENOENT'`, `'EIO'`, …), if any. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

/**
 * Wraps a file-system failure as `io_error` ("`what` failed (EIO): …", `details.errno` and any
 * `details` given); a `RepaError` passes unchanged.
 */
export function ioError(
  error: unknown,
  what: string,
  details: Record<string, unknown> = {},
): RepaError {
  if (RepaError.isInstance(error)) return error;
  const code = errnoCode(error);
  const reason = error instanceof Error ? error.message : String(error);
  return new RepaError('io_error', `${what} failed${code ? ` (${code})` : ''}: ${reason}`, {
    cause: error,
    details: { ...details, ...(code === undefined ? {} : { errno: code }) },
  });
}
