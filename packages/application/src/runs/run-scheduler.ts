import {
  isTerminalRunStatus,
  RepaError,
  type RunInfo,
  type V1Params,
  type V1Result,
} from '@repa/protocol';
import type { SettingsStore } from '@repa/settings';
import { loadHost } from '../load-host.js';
import type { ModelChoices } from '../model-choices.js';
import type { ConnectionContext } from '../server/repa-handlers.js';
import { type SessionHosts, sessionKey } from '../session-hosts.js';
import type { SpaceTrust } from '../space-trust.js';
import { acceptedSettingsOf, decideSettings, overridesOf } from './accepted-settings.js';
import { checkResumable, checkResumeStatus, checkRetryable } from './attempt-checks.js';
import { executeRun } from './execute-run.js';
import { pruneHistoryAfterRun } from './rewind-run.js';
import { RunDeliveries } from './run-deliveries.js';
import type { RunLedger } from './run-ledger.js';
import type { AcceptedSettings, RunRequest } from './run-request.js';
import { RunWatches } from './run-watches.js';
import { SessionWatches } from './session-watches.js';

/** What the run scheduler works with. */
export interface RunSchedulerParts {
  /** Repa's application directory (images and attachments are checked against its grants). */
  appDirectory: string;
  ledger: RunLedger;
  settings: SettingsStore;
  trust: SpaceTrust;
  hosts: SessionHosts;
  /** Receives one line per failed run (the daemon log). */
  log: (line: string) => void;
  /** Decides a run's model from its settings (`auth_failed` without credentials, R71). */
  models: ModelChoices;
}

/**
 * The runs of every session: accepts requests durably with their settings decided first (spec
 * R20–R22), starts a `new` run at once and a session's queue in order (R24), delivers `steer` and
 * `followUp` into the running run, cancels (R66), and tells subscribers each run's events. One
 * session's run never stops another's (R25).
 */
export class RunScheduler {
  readonly #parts: RunSchedulerParts;
  readonly #ledger: RunLedger;
  readonly #watches = new RunWatches();
  readonly #sessions = new SessionWatches(this.#watches);
  readonly #deliveries: RunDeliveries;
  /** The runs executing here, with their session key. */
  readonly #active = new Map<string, { sessionKey: string; done: Promise<void> }>();
  /** The sessions being compacted on request (their runs wait, spec R73). */
  readonly #compacting = new Set<string>();
  #closing = false;

  constructor(parts: RunSchedulerParts) {
    this.#parts = parts;
    this.#ledger = parts.ledger;
    this.#deliveries = new RunDeliveries(parts.ledger, parts.hosts, this.#watches, (run) =>
      this.#sessions.announce(run),
    );
  }

  /** True while no run is accepted or running (the daemon may exit when idle long enough). */
  get idle(): boolean {
    return this.#active.size === 0 && this.#ledger.activeRuns().length === 0;
  }

  /** Whether one of the session's runs, or a compaction of it, is executing here. */
  isRunning(space: string, sessionId: string): boolean {
    const key = sessionKey(space, sessionId);
    return (
      this.#compacting.has(key) || [...this.#active.values()].some((run) => run.sessionKey === key)
    );
  }

  /**
   * Compacts a session's history now through its host (spec R73) with the standing
   * `compaction.instructions` and then `instructions`, the session's prompt settings saying which
   * sources the summary leaves out (R46). `busy` while one of its runs is accepted or running; a
   * run submitted meanwhile is `busy` too, a queued one starts after it. `params` name a real
   * space root and a session checked there (`reachParams`).
   */
  async compact(params: V1Params<'session.compact'>): Promise<V1Result<'session.compact'>> {
    const { space, sessionId } = params;
    const active = this.#ledger
      .activeRuns()
      .find((run) => run.space === space && run.sessionId === sessionId);
    if (active || this.isRunning(space, sessionId)) {
      throw new RepaError('busy', `Session ${sessionId} has an active run or compaction.`, {
        fix: 'Wait for it to end (or cancel it), then compact the session.',
      });
    }
    const key = sessionKey(space, sessionId);
    this.#compacting.add(key);
    try {
      const { settings, hosts, trust } = this.#parts;
      const snapshot = await settings.resolveForRun(space, sessionId);
      const standing = (await settings.get({ space, sessionId })).find(
        (item) => item.key === 'compaction.instructions',
      )?.value;
      const instructions =
        [standing, params.instructions]
          .filter((text): text is string => typeof text === 'string' && text.trim() !== '')
          .join('\n\n') || undefined;
      const host = await hosts.host(space, sessionId, await trust.isTrusted(space));
      const { instructionsApplied, ...outcome } = await host.compact(
        instructions,
        snapshot.promptSettings,
      );
      // Named as applied only when Pi asked its summary with them.
      const asked = instructions
        ? instructionsApplied
          ? { instructions }
          : { instructionsNotApplied: instructions }
        : {};
      return { ...outcome, ...asked };
    } finally {
      this.#compacting.delete(key);
      this.#pump(space, sessionId);
    }
  }

  /** Sends the run's next events to `connection` as `run.event` notifications. */
  subscribe(runId: string, connection: ConnectionContext): void {
    this.#watches.subscribe(runId, connection);
  }

  /**
   * Follows a session's runs for `connection` (`session.subscribe`): the runs accepted or running
   * now, oldest first, whose events it gets from now on, and every run accepted later (`params`
   * reached as for {@link compact}).
   */
  async subscribeSession(
    params: V1Params<'session.subscribe'>,
    connection: ConnectionContext,
  ): Promise<V1Result<'session.subscribe'>> {
    const { space } = params;
    this.#sessions.subscribe(space, params.sessionId, connection);
    const runs = this.#ledger
      .listRuns({ space, sessionId: params.sessionId, limit: 1000 })
      .filter((run) => !isTerminalRunStatus(run.status))
      .reverse();
    for (const run of runs) this.#watches.subscribe(run.runId, connection);
    return { runs };
  }

  /** Stops following a session's new runs for `connection` (`session.unsubscribe`). */
  async unsubscribeSession(
    params: V1Params<'session.unsubscribe'>,
    connection: ConnectionContext,
  ): Promise<V1Result<'session.unsubscribe'>> {
    const { space } = params;
    return { unsubscribed: this.#sessions.unsubscribe(space, params.sessionId, connection) };
  }

  /** Starts every session's queue again, in order (queued runs survive a restart, R24). */
  restartQueues(): void {
    for (const { space, sessionId } of this.#ledger.queuedSessions()) this.#pump(space, sessionId);
  }

  /**
   * Accepts a run request (spec R20–R22) and starts it in the background; `params` name a real
   * space root, opened (`reachParams`).
   */
  async submit(
    params: V1Params<'run.submit'>,
    subscriber?: ConnectionContext,
  ): Promise<V1Result<'run.submit'>> {
    return this.#accept(params, subscriber);
  }

  /** Starts a new attempt of an ended run, linked to it (no automatic retry, spec R73). */
  async retry(
    runId: string,
    requestId: string,
    subscriber?: ConnectionContext,
  ): Promise<V1Result<'run.retry'>> {
    const original = this.#ledger.getRun(runId);
    checkRetryable(original);
    // A retry keeps the original's one-run overrides (settings levels are read again).
    const request = { ...this.#again(original, requestId), retryOf: runId };
    return this.#accept({ ...request, overrides: overridesOf(original) }, subscriber);
  }

  /**
   * Resumes an interrupted or failed run as a new attempt linked to it (`resumeOf`) with the
   * original's accepted settings: its session continues from where the history ends, or, when
   * its request never entered the history, that request is sent now; `not_last_run` when a later
   * run of the session entered the history. Never automatic (R1, R73).
   */
  async resume(
    runId: string,
    requestId: string,
    subscriber?: ConnectionContext,
  ): Promise<V1Result<'run.resume'>> {
    const original = this.#ledger.getRun(runId);
    checkResumeStatus(original);
    const request = { ...this.#again(original, requestId), resumeOf: runId };
    return this.#accept(request, subscriber, acceptedSettingsOf(original), () =>
      checkResumable(this.#ledger, original),
    );
  }

  /** Cancels a run: an accepted one never starts; a running one is aborted through Pi (R66). */
  async cancel(runId: string): Promise<RunInfo> {
    const run = this.#ledger.getRun(runId);
    if (run.status === 'accepted') {
      const cancelled = this.#ledger.finish(runId, {
        status: 'cancelled',
        error: new RepaError('cancelled', 'The run was cancelled before it started.').toWire(),
      });
      this.#watches.emit(cancelled, {
        type: 'status',
        status: 'cancelled',
        error: cancelled.error,
      });
      if (run.delivery === 'queue') this.#queueMoved(run.space, run.sessionId);
      return cancelled;
    }
    // A steer or follow-up not yet delivered is taken back; a delivered one stays delivered.
    if (run.status === 'running' && this.#deliveries.has(runId)) {
      await this.#deliveries.withdraw(runId);
      return this.#ledger.getRun(runId);
    }
    const active = this.#active.get(runId);
    if (run.status === 'running' && active) {
      const host = await this.#parts.hosts.opened(run.space, run.sessionId);
      await host?.cancel();
      await active.done;
    }
    return this.#ledger.getRun(runId);
  }

  /**
   * Stops accepting and starting runs, waits up to `graceMs` for the active ones, then cancels the
   * rest (they end `cancelled`; what Pi saved is kept).
   */
  async close(graceMs: number): Promise<void> {
    this.#closing = true;
    const pending = [...this.#active.values()].map((active) => active.done);
    // Not unref'd: a held run keeps no handle open, and the wait itself must keep the process up.
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), graceMs);
    });
    const result = await Promise.race([Promise.all(pending), timeout]);
    clearTimeout(timer);
    if (result === 'timeout') {
      for (const runId of this.#active.keys()) await this.cancel(runId).catch(() => undefined);
    }
  }

  /** The request of a new attempt of `original`: its session and input, a new request id. */
  #again(original: RunInfo, requestId: string): RunRequest {
    const { space, sessionId } = original;
    return { requestId, space, sessionId, input: this.#ledger.inputOf(original.runId) };
  }

  /**
   * Accepts a request; `subscriber` gets the run's events from the first one on. `accepted`: the
   * settings already decided for it (a resumption keeps the original's); otherwise read now.
   * `check` runs for a new request id only, before it is recorded.
   */
  async #accept(
    request: RunRequest,
    subscriber?: ConnectionContext,
    accepted?: AcceptedSettings,
    check?: () => Promise<void>,
  ): Promise<V1Result<'run.submit'>> {
    if (this.#closing) throw new RepaError('daemon_unavailable', 'The daemon is shutting down.');
    // R21: a known request id answers from the ledger before anything else is read.
    const known = this.#ledger.lookup(request);
    if (known) {
      if (subscriber) this.#watches.subscribe(known.run.runId, subscriber);
      return { ...known };
    }
    await this.#parts.trust.checkSession(request.space, request.sessionId);
    await this.#parts.hosts.sessionFile(request.space, request.sessionId);
    await check?.();
    if ((request.delivery ?? 'new') === 'new') this.#refuseWhileCompacting(request);
    // Images and attachments are checked before acceptance (`invalid_request`,
    // `path_outside_space`); a resumption's were, when the original was accepted.
    if (!accepted) {
      await (await loadHost()).checkRunInput(
        request.space,
        this.#parts.appDirectory,
        request.input,
      );
    }
    // Inline images are stored by hash before the request is recorded (and kept till then).
    const release = await this.#ledger.images.store(request.input.images);
    try {
      if (accepted) return this.#record(request, accepted, subscriber);
      if (request.delivery === 'steer' || request.delivery === 'followUp') {
        return this.#acceptDelivery(request, request.delivery, subscriber);
      }
      const snapshot = await this.#parts.settings.resolveForRun(request.space, request.sessionId);
      const settings = decideSettings(snapshot, request.overrides);
      // Spec R71: the model is decided now, with Pi's credentials as they are, and recorded.
      const model = await this.#parts.models.forRun(
        request.space,
        settings.modelSettings ?? snapshot.modelSettings,
        settings.modelSettingsSources ?? {},
      );
      return this.#record(request, { ...settings, model }, subscriber);
    } finally {
      release();
    }
  }

  /** `busy` while the request's session is being compacted (a queued request waits instead). */
  #refuseWhileCompacting(request: RunRequest): void {
    if (!this.#compacting.has(sessionKey(request.space, request.sessionId))) return;
    throw new RepaError('busy', `Session ${request.sessionId} is being compacted.`, {
      fix: 'Submit again once the compaction has ended, or queue the request (delivery queue).',
    });
  }

  /** Records an accepted request in the ledger and starts (or queues) its run. */
  #record(
    request: RunRequest,
    settings: AcceptedSettings,
    subscriber?: ConnectionContext,
  ): V1Result<'run.submit'> {
    const acceptance = this.#ledger.accept(request, settings);
    if (subscriber) this.#watches.subscribe(acceptance.run.runId, subscriber);
    if (!acceptance.resubmitted) {
      this.#sessions.announce(this.#ledger.getRun(acceptance.run.runId));
      if (request.delivery === 'queue') this.#pump(request.space, request.sessionId);
      else this.#start(acceptance.run);
    }
    return { ...acceptance, run: this.#ledger.getRun(acceptance.run.runId) };
  }

  /**
   * Accepts a `steer` or `followUp` request into the session's running run (`no_active_run`
   * when there is none) and hands it to Pi.
   */
  #acceptDelivery(
    request: RunRequest,
    kind: 'steer' | 'followUp',
    subscriber?: ConnectionContext,
  ): V1Result<'run.submit'> {
    if (request.input.attachments?.length) {
      throw new RepaError('invalid_request', `A ${kind} message cannot carry attached documents.`, {
        fix: 'Attach documents to a new or queued run, or name them in the text.',
        details: { field: 'input.attachments' },
      });
    }
    const key = sessionKey(request.space, request.sessionId);
    const target = [...this.#active.entries()]
      .filter(([, active]) => active.sessionKey === key)
      .map(([runId]) => this.#ledger.getRun(runId))
      .find((run) => run.status === 'running');
    const host = this.#parts.hosts.opened(request.space, request.sessionId);
    if (!target || !host) {
      throw new RepaError('no_active_run', `Session ${request.sessionId} has no running run.`, {
        fix: `Submit the text as a new run (delivery new or queue) instead of ${kind}.`,
      });
    }
    return this.#deliveries.accept(request, kind, target, host, subscriber);
  }

  #start(run: RunInfo): void {
    const done = executeRun(run, {
      ...this.#parts,
      emit: (of, event) => this.#watches.emit(of, event),
    }).finally(() => {
      this.#active.delete(run.runId);
      this.#pump(run.space, run.sessionId);
      // The space's kept history stays within its limits (history.*).
      void pruneHistoryAfterRun(this.#parts, run.space);
    });
    this.#active.set(run.runId, { sessionKey: sessionKey(run.space, run.sessionId), done });
    if (run.delivery === 'queue') this.#queueMoved(run.space, run.sessionId);
  }

  /** Tells the session's followers the new places of the runs still waiting in its queue. */
  #queueMoved(space: string, sessionId: string): void {
    const waiting = this.#ledger
      .listRuns({ space, sessionId, status: 'accepted', limit: 1000 })
      .filter((run) => run.delivery === 'queue');
    for (const run of waiting.reverse()) this.#sessions.announce(run);
  }

  /** Starts the first queued run of a session when none of its runs is active here. */
  #pump(space: string, sessionId: string): void {
    if (this.#closing) return;
    if (this.isRunning(space, sessionId)) return;
    const next = this.#ledger.nextQueued(space, sessionId);
    if (next) this.#start(next);
  }
}
