import { RepaError, toolErrorText } from '@repa/protocol';
import type { ToolCallState } from './tool-call-context.js';

/** The error of a tool call cancelled before it started. */
export function cancelledCall(): RepaError {
  return new RepaError(
    'cancelled',
    'The tool call was cancelled before it started; nothing was saved.',
  );
}

/** The RepaError for an error Pi's tools threw, told by Pi's message texts (they carry no code). */
function classify(error: unknown): RepaError {
  const message = error instanceof Error ? error.message : String(error);
  if (message === 'Operation aborted') {
    return new RepaError('cancelled', 'The tool call was cancelled before anything was saved.');
  }
  if (message.startsWith('Could not find')) {
    return new RepaError('patch_conflict', message, {
      fix: 'Read the file again and copy oldText exactly from its current text.',
    });
  }
  if (/occurrences/u.test(message)) {
    return new RepaError('invalid_request', message, {
      fix: 'Add surrounding lines to oldText until it matches exactly one place.',
    });
  }
  return new RepaError('invalid_request', message, {
    fix: 'Correct the tool arguments as the message says, then call the tool again.',
  });
}

/**
 * The error a tool throws: Pi turns it into an `isError` result whose text is the message, so the
 * message carries the code, what went wrong, recovery facts and the fix. `details` stay intact.
 */
export function toolError(error: unknown, state?: ToolCallState): RepaError {
  const cause = state?.error ?? (RepaError.isInstance(error) ? error : classify(error));
  const extra: string[] = [];
  const details = cause.details ?? {};
  if (typeof details.currentVersion === 'string')
    extra.push(`Current version: ${details.currentVersion}`);
  if (typeof details.excerpt === 'string')
    extra.push(`Current start of the file:\n${details.excerpt}`);
  return cause.withMessage(toolErrorText(cause, extra));
}
