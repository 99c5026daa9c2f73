import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import {
  type ApprovalRecord,
  type AttachedSource,
  type Citation,
  type PromptSectionReport,
  RepaError,
  type RestrictedItem,
  type RunInfo,
  type RunInput,
  type RunUsage,
  type WireError,
} from '@repa/protocol';
import { ACTIVE, refuseUntakable } from './ledger-admission.js';
import {
  markSessionDeleting,
  prunableRuns,
  removeRuns,
  sessionsDeleting,
  unmarkSessionDeleting,
  usedImages,
} from './ledger-retention.js';
import {
  payloadHash,
  type Row,
  type RunFilter,
  rowToRun,
  SELECT_RUNS,
  selectRuns,
} from './ledger-rows.js';
import { createLedgerSchema } from './ledger-schema.js';
import { RunImages } from './run-images.js';
import type { Acceptance, AcceptedSettings, RunRequest } from './run-request.js';

/**
 * The durable run ledger: requests and runs in a SQLite file (WAL, `synchronous=FULL`).
 * Contract: an accepted request is on disk before `accept` returns; a request id maps to one run.
 */
export class RunLedger {
  readonly #db: DatabaseSync;
  /** The inline images of runs: files by sha256 in the `images` folder beside the ledger. */
  readonly images: RunImages;

  /** Opens (or creates) the ledger file. */
  constructor(path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.images = new RunImages(join(dirname(path), 'images'));
    this.#db = new DatabaseSync(path);
    this.#db.exec(
      'PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;',
    );
    createLedgerSchema(this.#db);
  }

  /** Closes the file. */
  close(): void {
    this.#db.close();
  }

  /**
   * The original run of a known request id, `idempotency_mismatch` when that id was used for a
   * different payload, or `undefined` for a new request id.
   */
  lookup(request: RunRequest): Acceptance | undefined {
    const known = this.#db
      .prepare('SELECT payload_hash, run_id FROM requests WHERE request_id = ?')
      .get(request.requestId) as Row | undefined;
    if (!known) return undefined;
    if (known.payload_hash !== payloadHash(request)) {
      throw new RepaError(
        'idempotency_mismatch',
        `Request id ${request.requestId} was already used for a different request.`,
        { details: { requestId: request.requestId, runId: known.run_id } },
      );
    }
    return { run: this.getRun(String(known.run_id)), resubmitted: true };
  }

  /**
   * Accepts a request with the settings decided for it (spec R20): the original run for a known
   * request id (spec R21), `busy` while the session has an active run (R22), otherwise a new
   * `accepted` run, durable before this returns.
   */
  accept(request: RunRequest, settings: AcceptedSettings): Acceptance {
    const known = this.lookup(request);
    if (known) return known;
    refuseUntakable(this.#db, request);
    const delivery = request.delivery ?? 'new';
    const previous = request.retryOf ?? request.resumeOf;
    const attempt = previous ? this.getRun(previous).attempt + 1 : 1;
    const runId = randomUUID();
    const now = new Date().toISOString();
    // Inline image bytes live in files by hash (stored before, `images.store`), never in here.
    const { input, hashes } = this.images.storedInput(request.input);
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      this.#db
        .prepare(
          'INSERT INTO requests (request_id, kind, payload, payload_hash, run_id, accepted_at) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(
          request.requestId,
          request.retryOf
            ? 'retry'
            : request.resumeOf
              ? 'resume'
              : delivery === 'new'
                ? 'submit'
                : delivery,
          JSON.stringify({ ...request, input }),
          payloadHash(request),
          runId,
          now,
        );
      this.#db
        .prepare(
          `INSERT INTO runs (run_id, request_id, space, session_id, input, status, attempt, retry_of,
             prompt_settings, settings_revisions, settings_sources, model_settings,
             model_settings_sources, accepted_at, delivery, target_run_id, resume_of,
             model, model_source, thinking_level, connection)
           VALUES (?, ?, ?, ?, ?, 'accepted', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          runId,
          request.requestId,
          request.space,
          request.sessionId,
          JSON.stringify(input),
          attempt,
          request.retryOf ?? null,
          JSON.stringify(settings.promptSettings),
          JSON.stringify(settings.settingsRevisions),
          settings.settingsSources ? JSON.stringify(settings.settingsSources) : null,
          settings.modelSettings ? JSON.stringify(settings.modelSettings) : null,
          settings.modelSettingsSources ? JSON.stringify(settings.modelSettingsSources) : null,
          now,
          delivery === 'new' ? null : delivery,
          request.targetRunId ?? null,
          request.resumeOf ?? null,
          settings.model?.model ?? null,
          settings.model?.source ?? null,
          settings.model?.thinkingLevel ?? null,
          settings.model?.connection ?? null,
        );
      for (const hash of hashes) {
        this.#db.prepare('INSERT INTO run_images (run_id, sha256) VALUES (?, ?)').run(runId, hash);
      }
      this.#db.exec('COMMIT');
    } catch (error) {
      this.#db.exec('ROLLBACK');
      throw error;
    }
    return { run: this.getRun(runId), resubmitted: false };
  }

  /** The run a request id was accepted as, or `undefined` for a new request id. */
  requestedRun(requestId: string): RunInfo | undefined {
    const known = this.#db
      .prepare('SELECT run_id FROM requests WHERE request_id = ?')
      .get(requestId) as Row | undefined;
    return known ? this.getRun(String(known.run_id)) : undefined;
  }

  /** The run with this id, or `not_found`. */
  getRun(runId: string): RunInfo {
    const row = this.#db.prepare(`${SELECT_RUNS} WHERE run_id = ?`).get(runId) as Row | undefined;
    if (!row) throw new RepaError('not_found', `There is no run ${runId}.`);
    return rowToRun(row);
  }

  /** Runs matching the filter, newest first. */
  listRuns(filter: RunFilter = {}): RunInfo[] {
    return selectRuns(this.#db, filter);
  }

  /**
   * Marks an accepted run as running; `marked`: its host marks the run's message in the
   * session's history (what `run.resume` reads back, spec R73).
   */
  markRunning(runId: string, marked = false): RunInfo {
    this.#db
      .prepare(
        "UPDATE runs SET status = 'running', started_at = ?, history_marked = ? WHERE run_id = ? AND status = 'accepted'",
      )
      .run(new Date().toISOString(), marked ? '1' : null, runId);
    return this.getRun(runId);
  }

  /** Whether the run started on a host that marks its message in the history (newer runs). */
  historyMarked(runId: string): boolean {
    const row = this.#db.prepare('SELECT history_marked FROM runs WHERE run_id = ?').get(runId);
    return (row as Row | undefined)?.history_marked === '1';
  }

  /** The runs (not steer or follow-up messages) of `run`'s session accepted after it, oldest first. */
  runIdsAfter(run: RunInfo): string[] {
    const rows = this.#db
      .prepare(
        `SELECT run_id FROM runs WHERE space = ? AND session_id = ? AND target_run_id IS NULL
           AND rowid > (SELECT rowid FROM runs WHERE run_id = ?) ORDER BY rowid`,
      )
      .all(run.space, run.sessionId, run.runId) as Row[];
    return rows.map((row) => String(row.run_id));
  }

  /**
   * Ends an active run with its final status (and, for a run that started, the prompt section
   * report, in the same commit); a run that already ended is left as it is.
   */
  finish(
    runId: string,
    outcome: {
      status: 'succeeded' | 'failed' | 'cancelled' | 'interrupted';
      error?: WireError;
      output?: string;
      promptSections?: PromptSectionReport[];
      usage?: RunUsage;
      model?: string;
      connection?: string;
      restricted?: RestrictedItem[];
      citations?: Citation[];
    },
  ): RunInfo {
    this.#db
      .prepare(
        `UPDATE runs SET status = ?, error = ?, output = ?, ended_at = ?,
           prompt_sections = COALESCE(?, prompt_sections), usage = COALESCE(?, usage),
           model = COALESCE(?, model), connection = COALESCE(?, connection),
           restricted = COALESCE(?, restricted), citations = COALESCE(?, citations)
         WHERE run_id = ? AND status IN (${ACTIVE.map(() => '?').join(',')})`,
      )
      .run(
        outcome.status,
        outcome.error ? JSON.stringify(outcome.error) : null,
        outcome.output ?? null,
        new Date().toISOString(),
        outcome.promptSections ? JSON.stringify(outcome.promptSections) : null,
        outcome.usage ? JSON.stringify(outcome.usage) : null,
        outcome.model ?? null,
        outcome.connection ?? null,
        outcome.restricted ? JSON.stringify(outcome.restricted) : null,
        outcome.citations?.length ? JSON.stringify(outcome.citations) : null,
        runId,
        ...ACTIVE,
      );
    return this.getRun(runId);
  }

  /**
   * After a crash: every run still `accepted` or `running` becomes `interrupted` (no automatic
   * re-run; spec R73). Returns the runs it changed.
   */
  interruptActive(reason: WireError | ((run: RunInfo) => WireError)): RunInfo[] {
    return this.activeRuns().map((run) =>
      this.finish(run.runId, {
        status: 'interrupted',
        error: typeof reason === 'function' ? reason(run) : reason,
      }),
    );
  }

  /**
   * The runs left active by a stopped daemon: `running` ones, and `accepted` ones that were not
   * waiting in a queue (after a crash: those {@link interruptActive} ends). Queued runs stay queued.
   */
  activeRuns(): RunInfo[] {
    const rows = this.#db
      .prepare(
        `SELECT run_id FROM runs WHERE status IN (${ACTIVE.map(() => '?').join(',')})
           AND NOT (status = 'accepted' AND delivery IS 'queue') ORDER BY rowid`,
      )
      .all(...ACTIVE) as Row[];
    return rows.map((row) => this.getRun(String(row.run_id)));
  }

  /** The first run waiting in the queue of a session, if any. */
  nextQueued(space: string, sessionId: string): RunInfo | undefined {
    const row = this.#db
      .prepare(
        `SELECT run_id FROM runs WHERE space = ? AND session_id = ? AND status = 'accepted'
           AND delivery = 'queue' ORDER BY rowid LIMIT 1`,
      )
      .get(space, sessionId) as Row | undefined;
    return row ? this.getRun(String(row.run_id)) : undefined;
  }

  /** Every session with runs waiting in its queue. */
  queuedSessions(): { space: string; sessionId: string }[] {
    const rows = this.#db
      .prepare(
        `SELECT space, session_id, MIN(rowid) AS first FROM runs WHERE status = 'accepted'
           AND delivery = 'queue' GROUP BY space, session_id ORDER BY first`,
      )
      .all() as Row[];
    return rows.map((row) => ({ space: String(row.space), sessionId: String(row.session_id) }));
  }

  /**
   * The full input of a run as accepted, inline image bytes included (read from their files; an
   * older run kept them in the ledger itself).
   */
  inputOf(runId: string): RunInput {
    const row = this.#db.prepare('SELECT input FROM runs WHERE run_id = ?').get(runId) as
      | Row
      | undefined;
    if (!row) throw new RepaError('not_found', `There is no run ${runId}.`);
    return this.images.restoredInput(JSON.parse(String(row.input)));
  }

  /**
   * Starts deleting a session's runs (spec R24 aside: the history goes too): from now on they are
   * left out of listings; {@link removeSession} removes them, and after a crash the daemon
   * finishes what {@link deletingSessions} lists.
   */
  beginSessionDelete(space: string, sessionId: string): void {
    markSessionDeleting(this.#db, space, sessionId);
  }

  /** Takes back {@link beginSessionDelete} (the session file could not be deleted). */
  cancelSessionDelete(space: string, sessionId: string): void {
    unmarkSessionDeleting(this.#db, space, sessionId);
  }

  /** The sessions whose deletion began and has not finished (after a crash). */
  deletingSessions(): { space: string; sessionId: string }[] {
    return sessionsDeleting(this.#db);
  }

  /** Removes every run of a deleted session and ends its deletion, in one commit; the count. */
  removeSession(space: string, sessionId: string): number {
    const ids = (
      this.#db
        .prepare('SELECT run_id FROM runs WHERE space = ? AND session_id = ?')
        .all(space, sessionId) as Row[]
    ).map((row) => String(row.run_id));
    removeRuns(this.#db, ids, () => this.cancelSessionDelete(space, sessionId));
    return ids.length;
  }

  /**
   * Removes the runs that ended before `cutoff` (ISO time), of `space` when given, except those a
   * kept run refers to; then the image files no run uses. Returns what was removed.
   */
  prune(cutoff: string, space?: string): { runs: number; images: number } {
    const ids = prunableRuns(this.#db, cutoff, space);
    if (ids.length > 0) removeRuns(this.#db, ids);
    return { runs: ids.length, images: this.sweepImages() };
  }

  /** Deletes the image files no run uses any more; the count. */
  sweepImages(): number {
    return this.images.sweep(usedImages(this.#db));
  }

  /** Marks a run as rewound by `rewound.rewindId`, or (`null`) as no longer rewound. */
  markRewound(runId: string, rewound: { rewindId: string; at: string } | null): void {
    this.#setJson(runId, 'rewound', rewound);
  }

  /** Records the attached documents a run read, with their versions. */
  recordAttachedSources(runId: string, sources: AttachedSource[]): void {
    this.#setJson(runId, 'attached_sources', sources);
  }

  /** Records the run's approval requests and answers so far (spec R37), replacing the last list. */
  recordApprovals(runId: string, approvals: ApprovalRecord[]): void {
    this.#setJson(runId, 'approvals', approvals);
  }

  /** Sets one of a run's JSON columns (`null`: cleared). */
  #setJson(runId: string, column: 'rewound' | 'attached_sources' | 'approvals', value: unknown) {
    const json = value === null ? null : JSON.stringify(value);
    this.#db.prepare(`UPDATE runs SET ${column} = ? WHERE run_id = ?`).run(json, runId);
  }
}
