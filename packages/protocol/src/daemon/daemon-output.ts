import { isRepaErrorCode, type RepaError, type RepaErrorCode } from '../v1/errors/repa-error.js';

/** The model label of the embedded offline responder (`initialize`'s `server.model`, `--model`). */
export const OFFLINE_MODEL_ID = 'repa-offline';

/** How every client names the offline responder: its id and what it is. */
export const OFFLINE_MODEL_LABEL = `${OFFLINE_MODEL_ID} (local responder, no language model)`;

/** What a daemon's ready line says. */
export interface DaemonReady {
  /** The socket it serves. */
  socketPath: string;
  /** The model it was started with (`--model`, the default of `model.id`), if any. */
  model?: string | undefined;
}

/** What a daemon's failure lines say (its last words before exiting 1). */
export interface DaemonFailure {
  /** The error's message. */
  message: string;
  /** The error's code. */
  code: RepaErrorCode;
  /** How to fix it. */
  fix: string;
}

const READY = /^repa-daemon ready socket=(\S+)(?: model=(\S+))?$/m;
const FAILED = /^repa-daemon: (.*) \(([a-z_]+)\)\nFix: (.*)$/m;

/** The line a daemon prints on stdout once it serves (`repa-daemon ready socket=…[ model=…]`). */
export function formatDaemonReady(ready: DaemonReady): string {
  return `repa-daemon ready socket=${ready.socketPath}${ready.model ? ` model=${ready.model}` : ''}\n`;
}

/** The first ready line in a daemon's output, or null while there is none. */
export function parseDaemonReady(output: string): DaemonReady | null {
  const match = READY.exec(output);
  if (!match) return null;
  return { socketPath: match[1] ?? '', ...(match[2] ? { model: match[2] } : {}) };
}

/** The lines a daemon prints on stderr when it cannot start (message, code, fix). */
export function formatDaemonFailure(error: RepaError): string {
  return `repa-daemon: ${error.message} (${error.code})\nFix: ${error.fix}\n`;
}

/** The failure a daemon reported in its output, or null when it reported none. */
export function parseDaemonFailure(output: string): DaemonFailure | null {
  const match = FAILED.exec(output);
  if (!match) return null;
  const [, message = '', code = 'internal', fix = ''] = match;
  return { message, code: isRepaErrorCode(code) ? code : 'internal', fix };
}
