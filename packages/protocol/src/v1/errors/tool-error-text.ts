import type { WireError } from '../wire-types.generated.js';
import {
  REPA_ERROR_CODES,
  REPA_ERROR_FIXES,
  type RepaError,
  type RepaErrorCode,
} from './repa-error.js';

/**
 * The text of a tool error as the model sees it: `<code>: <message>`, any `extra` lines, then
 * `Fix: <fix>`. Contract: Pi keeps only the message of an error a tool throws, so this text is
 * how the code and the fix travel; {@link parseToolErrorText} reads it back.
 */
export function toolErrorText(error: RepaError, extra: readonly string[] = []): string {
  return [`${error.code}: ${error.message}`, ...extra, `Fix: ${error.fix}`].join('\n');
}

/** The wire error in a tool error text; `internal` with the whole text when it has no code. */
export function parseToolErrorText(text: string): WireError {
  const head = /^([a-z]+(?:_[a-z]+)*): /.exec(text)?.[1] ?? '';
  const code: RepaErrorCode = (REPA_ERROR_CODES as string[]).includes(head)
    ? (head as RepaErrorCode)
    : 'internal';
  const fix = /\nFix: (.+)$/s.exec(text)?.[1] ?? REPA_ERROR_FIXES[code];
  return { code, message: text || 'The tool failed.', fix };
}

/** What a tool error says happened, without the code before it and the `Fix:` line after it. */
export function toolErrorMessage(error: Pick<WireError, 'code' | 'message'>): string {
  const fix = error.message.indexOf('\nFix: ');
  const said = fix === -1 ? error.message : error.message.slice(0, fix);
  return (said.startsWith(`${error.code}: `) ? said.slice(error.code.length + 2) : said).trim();
}
