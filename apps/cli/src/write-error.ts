import { RepaError } from '@repa/protocol';

/** Prints `repa: <message> (<code>)` and `Fix: <fix>` on stderr. */
export function writeError(stderr: NodeJS.WritableStream, error: unknown): RepaError {
  const repaError = RepaError.fromUnknown(error);
  stderr.write(`repa: ${repaError.message} (${repaError.code})\nFix: ${repaError.fix}\n`);
  return repaError;
}
