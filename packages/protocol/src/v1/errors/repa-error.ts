import { z } from 'zod';
import type { WireError } from '../wire-types.generated.js';

const MARKER = Symbol.for('repa.error');

/**
 * Every stable error code with the fix shown when the thrower gives none.
 * Contract: codes are never renamed or removed within protocol v1; clients switch on them.
 */
export const REPA_ERROR_FIXES = {
  invalid_request: 'Correct the request; the message names the bad field.',
  unsupported_version: 'Use a protocol version the server lists as supported.',
  method_not_found: 'Call one of the v1 methods listed in the protocol documentation.',
  not_initialized: 'Send initialize with protocolVersions ["v1"] first on every connection.',
  busy: 'Wait for the active run in this session to finish, or cancel it, then submit again.',
  not_found: 'Check the id or path; list the available objects first.',
  material_not_granted:
    'This outside material is granted to other spaces, not this one: use it from a space it is granted to, or ask the learner to grant it here too (repa materials add PATH --id ID --space DIR, which writes repa-content-access.json).',
  file_too_large:
    'The file is larger than Repa reads at once (see the limit in the message): work on a smaller file, or split it.',
  read_required: 'Read the file first so its current version is known, then save again.',
  stale_version:
    'The file changed since it was read: read it again, re-apply the change, then save.',
  path_outside_space: 'Use a path inside the space, relative to its root.',
  protected_path:
    'No tool changes what Pi, git or Repa run or read at every run (.repa, .git, .pi, .agents, AGENTS.md, …): make such a change yourself outside Repa.',
  settings_corrupt: 'Repair or remove the named settings file; nothing was overwritten.',
  data_corrupt:
    'Repair or remove the named Repa data file (see the message); nothing was overwritten.',
  idempotency_mismatch: 'Use a new request id for a different request.',
  context_unavailable: "Repair the space's learning context (see the reason), then submit again.",
  session_damaged:
    'Restore the session file from a backup or start a new session; the file was left untouched.',
  cancelled: 'The operation was cancelled; submit it again if it is still wanted.',
  patch_invalid: 'Fix the patch text; the message names the line that does not parse.',
  patch_conflict: 'Read the file again and rebuild the patch against its current text.',
  message_too_large: 'Send a smaller message, or raise the server message limit.',
  daemon_already_running: 'Use the running daemon, or stop it first (repa daemon stop).',
  daemon_unavailable: 'Start the daemon (repa daemon start) or check the app directory.',
  unauthorized:
    "Authenticate with the daemon's token (see its app directory) before calling other methods.",
  space_untrusted:
    'This space is restricted until you trust it: check what it contains, then run `repa trust` in it (or `repa trust --space DIR`).',
  space_unsafe:
    "Repa's .repa folder in this space is not a plain folder (e.g. a symlink); replace it with a real folder.",
  interrupted:
    'The daemon stopped while this run was active; look at the session history, then retry the run.',
  io_error: 'Check disk space and permissions for the path named in the message.',
  model_error:
    'The model provider reported an error (see the message); check the model, its credentials and the network, then retry.',
  provider_unreachable:
    'The model provider could not be reached (see the host in the message); check the network, the provider URL and any proxy, then retry.',
  auth_failed:
    'The model provider refused the credentials; renew the key or log in again for the connection named in the message (see `repa doctor`).',
  rate_limited:
    'The model provider is limiting requests; wait a while (Pi already retried), then retry the run.',
  provider_overloaded:
    'The model provider is overloaded (Pi already retried); wait a few minutes and retry the run, or choose another model (repa models).',
  sandbox_unavailable:
    'The command sandbox cannot run on this machine: install bubblewrap (Debian/Ubuntu: `sudo apt-get install bubblewrap`), or turn commands off with `repa settings set tools.bash off`.',
  no_active_run:
    'No run is active in this session to steer or follow up; submit the text as a new run (delivery new or queue).',
  queue_full:
    "The session's queue is full; wait for queued runs to start, or cancel some (repa runs cancel), then submit again.",
  run_finished:
    'The target run ended before the message was delivered; submit it again with delivery queue (or new) to run it on its own.',
  unsupported_content:
    'The file is in a format Repa cannot read as text (the message names it): ask the learner for it as a PDF, Word document (DOCX), EPUB, web page (HTML), Markdown or plain text.',
  document_read_only:
    'PDFs, Word documents, EPUBs and saved web pages are read-only sources: write notes about them in a Markdown file of the space instead.',
  document_encrypted:
    'The document is locked with a password: ask the learner for a copy without one (e.g. printed to a new PDF from a reader that opened it).',
  document_unreadable:
    'The document could not be read as text (the message says why): open it in a reader and save or print it to a new file, or ask the learner for the part that is needed.',
  ocr_unavailable:
    'Pages without a text layer are read by OCR with the tesseract command: install the Debian package the message names (e.g. `sudo apt-get install tesseract-ocr-deu`), or name only installed languages in `documents.ocrLanguages`.',
  edit_refused:
    'The learner did not approve this change (see the reason, if any): do not make it again as it was; ask the learner what they want instead.',
  not_last_run:
    'A later run of the session came after this one; resume that run instead, or retry this one as a new run (repa runs retry).',
  data_too_large:
    'A file of the space is larger than Repa reads (the message names it and the limit); shrink it or move it out of the space, then retry.',
  history_evicted:
    "The bytes this rewind needs are no longer kept (the space's kept history is bounded by `history.maxMegabytes` and `history.maxDays`): restore the file from a backup, or raise the limits for later runs.",
  offline:
    'Repa keeps Pi offline (PI_OFFLINE=1), so npm and git packages cannot be fetched: install the package from a local folder, or start the daemon with PI_OFFLINE=0 to let Pi reach npm and git.',
  package_failed:
    "Pi's package manager could not install or remove the package (see the message): check the source and that npm or git works, then retry.",
  internal: 'This is a bug in Repa; report it with the message and the steps that led to it.',
} as const;

/** A stable, machine-readable Repa error code. */
export type RepaErrorCode = keyof typeof REPA_ERROR_FIXES;

/** Every known error code, in declaration order. */
export const REPA_ERROR_CODES = Object.keys(REPA_ERROR_FIXES) as RepaErrorCode[];

/**
 * True when `code` is one this version knows. Narrows `error.code` (which may be a newer server's
 * code) to {@link RepaErrorCode}, so a `switch` over it can be checked for exhaustiveness.
 */
export function isRepaErrorCode(code: string): code is RepaErrorCode {
  return Object.hasOwn(REPA_ERROR_FIXES, code);
}

// Lets fromWire (and withMessage) build an error with a code this version may not know; not exported.
const FROM_WIRE: unique symbol = Symbol('repa.error.fromWire');

/** The wire shape of a Repa error; carried unchanged from the thrower to every client. */
export const wireErrorSchema = z
  .looseObject({
    code: z
      .string()
      .min(1)
      .meta({
        // The schema lists the codes of this version, each described by its standard fix; the list
        // only grows within v1 (a newer server's code is told apart with isRepaErrorCode).
        oneOf: REPA_ERROR_CODES.map((known) => ({
          const: known,
          description: REPA_ERROR_FIXES[known],
        })),
      })
      .describe(
        'Stable code, one of the listed ones; v1 only adds codes, so treat one you do not know as a generic error.',
      ),
    message: z.string().describe('Human message saying what went wrong.'),
    fix: z.string().describe('What to do about it.'),
    details: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('Structured facts for recovery (e.g. the current version on `stale_version`).'),
  })
  .meta({ id: 'Error', description: 'A Repa error: a stable code, a human message and the fix.' });

/** Options for a {@link RepaError}. */
export interface RepaErrorOptions {
  /** What to do about it; defaults to the code's standard fix. */
  fix?: string;
  /** Structured facts for recovery, sent to clients as-is (must be JSON-serialisable). */
  details?: Record<string, unknown>;
  /** The underlying error. */
  cause?: unknown;
}

/** The one error family of Repa: a stable `code`, a human message and the fix. */
export class RepaError extends Error {
  protected readonly [MARKER] = true;
  /**
   * Stable machine-readable code: one of {@link RepaErrorCode}, or a code of a newer server passed
   * through by {@link RepaError.fromWire} (narrow with {@link isRepaErrorCode}).
   */
  readonly code: RepaErrorCode | (string & {});
  /** What to do about it. */
  readonly fix: string;
  /** Structured facts for recovery. */
  readonly details: Record<string, unknown> | undefined;

  constructor(code: RepaErrorCode, message: string, options?: RepaErrorOptions);
  /** @internal A code received over the wire, which this version may not know. */
  constructor(code: string, message: string, options: RepaErrorOptions, origin: typeof FROM_WIRE);
  constructor(
    code: RepaErrorCode | (string & {}),
    message: string,
    options: RepaErrorOptions = {},
    _origin?: typeof FROM_WIRE,
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RepaError';
    this.code = code;
    this.fix =
      options.fix ?? (isRepaErrorCode(code) ? REPA_ERROR_FIXES[code] : REPA_ERROR_FIXES.internal);
    this.details = options.details;
  }

  /** True for any RepaError, including one from a duplicate copy of this package. */
  static isInstance(error: unknown): error is RepaError {
    return typeof error === 'object' && error !== null && MARKER in error;
  }

  /** The error itself when it is a RepaError, otherwise an `internal` RepaError wrapping it. */
  static fromUnknown(error: unknown): RepaError {
    if (RepaError.isInstance(error)) return error;
    const message = error instanceof Error ? error.message : String(error);
    return new RepaError('internal', message, { cause: error });
  }

  /** Rebuilds an error received over the wire; unknown codes pass through unchanged. */
  static fromWire(wire: unknown): RepaError {
    const parsed = wireErrorSchema.safeParse(wire);
    if (!parsed.success) {
      return new RepaError('internal', 'The server sent a malformed error.', {
        details: { received: wire },
      });
    }
    const { code, message, fix, details } = parsed.data;
    return new RepaError(code, message, { fix, details }, FROM_WIRE);
  }

  /** The same error (code, fix, details) told with another message; this error becomes its cause. */
  withMessage(message: string): RepaError {
    const details = this.details === undefined ? {} : { details: this.details };
    return new RepaError(this.code, message, { fix: this.fix, ...details, cause: this }, FROM_WIRE);
  }

  /** The wire shape of this error. */
  toWire(): WireError {
    return {
      code: this.code,
      message: this.message,
      fix: this.fix,
      ...(this.details === undefined ? {} : { details: this.details }),
    };
  }
}
