import { join } from 'node:path';
import { type RecoveredSave, readPdfBytes } from '@repa/content';
import { RepaError, type RunInfo, type V1Params, type V1Result } from '@repa/protocol';
import { SettingsStore } from '@repa/settings';
import type { RepaApplicationOptions } from './application-options.js';
import { ContextBuilds } from './context-builds.js';
import { ContextWrites } from './context-writes.js';
import { FolderGate } from './folder-gate.js';
import { type ApplicationHandlers, applicationHandlers, reachParams } from './handlers/index.js';
import { HomeRule } from './home-rule.js';
import { hideMachineFoldersOnLoad, piAgentDir } from './load-host.js';
import { Logins } from './logins.js';
import { ModelChoices } from './model-choices.js';
import { RunLedger } from './runs/run-ledger.js';
import { RunScheduler } from './runs/run-scheduler.js';
import type { ConnectionContext, RepaHandlers } from './server/repa-handlers.js';
import { finishSessionDeletes } from './session-deletes.js';
import { SessionHosts } from './session-hosts.js';
import { openSpaceStore } from './space-store.js';
import { SpaceTrust } from './space-trust.js';

/**
 * Repa's application layer: accepts requests durably (settings decided before acceptance, spec
 * R20–R22), runs them on one {@link PiConversationHost} per session without letting one session's
 * run stop another's (R25), and answers the protocol v1 methods. It wires its parts: the run
 * ledger and scheduler (`runs/`), the session hosts, the space trust, the settings store, context
 * writes and builds, logins, and the handlers of each namespace (`handlers/`).
 */
export class RepaApplication {
  readonly #ledger: RunLedger;
  readonly #settings: SettingsStore;
  readonly #trust: SpaceTrust;
  readonly #hosts: SessionHosts;
  readonly #runs: RunScheduler;
  readonly #handlers: ApplicationHandlers;
  readonly #log: (line: string) => void;
  readonly #models: ModelChoices;
  readonly #gate: FolderGate;
  readonly #appDirectory: string;
  #retention: NodeJS.Timeout | undefined;

  private constructor(options: RepaApplicationOptions) {
    this.#log = options.log ?? ((line) => process.stderr.write(line));
    this.#appDirectory = options.appDirectory;
    // Design R69: no space this daemon opens reads, lists or saves inside Pi's or Repa's folders.
    hideMachineFoldersOnLoad({ agentDir: options.agentDir, appDirectory: options.appDirectory });
    const ledger = join(options.appDirectory, 'ledger.sqlite');
    this.#ledger = new RunLedger(ledger);
    this.#trust = new SpaceTrust(options.appDirectory, ledger, options.trustEverySpace);
    this.#settings = new SettingsStore({
      appDirectory: options.appDirectory,
      isTrusted: (space) => this.#trust.isTrusted(space),
    });
    const models = new ModelChoices(options, this.#settings, this.#trust);
    this.#models = models;
    this.#gate = new FolderGate(
      this.#trust,
      new HomeRule(options.appDirectory, () => piAgentDir(options.agentDir)),
    );
    this.#hosts = new SessionHosts(options, this.#trust, () => models.models());
    this.#runs = new RunScheduler({
      appDirectory: options.appDirectory,
      ledger: this.#ledger,
      settings: this.#settings,
      trust: this.#trust,
      hosts: this.#hosts,
      log: this.#log,
      models,
    });
    const contextWrites = new ContextWrites(this.#trust);
    this.#handlers = applicationHandlers({
      appDirectory: options.appDirectory,
      agentDir: options.agentDir,
      models,
      startedAt: new Date().toISOString(),
      gate: this.#gate,
      ledger: this.#ledger,
      runs: this.#runs,
      settings: this.#settings,
      trust: this.#trust,
      hosts: this.#hosts,
      contextWrites,
      contextBuilds: new ContextBuilds(contextWrites, models, this.#trust, options.appDirectory),
      logins: new Logins(models),
    });
  }

  /**
   * Opens the application. Runs left `accepted` or `running` by a crash become `interrupted` (no
   * automatic re-run, spec R73) and their spaces' pending save intents are resolved; the saves a
   * run had made that recovery finished are attached to its error (`details.recoveredSaves`).
   * Each session's queue then starts again, in order (R24).
   */
  static async open(options: RepaApplicationOptions): Promise<RepaApplication> {
    const app = new RepaApplication(options);
    const active = app.#ledger.activeRuns();
    const recovered = new Map<string, readonly RecoveredSave[]>();
    for (const space of new Set(active.map((run) => run.space))) {
      // Opening a space's store resolves its pending save intents (rolled forward or kept).
      const store = await openSpaceStore(space, options.appDirectory).catch(() => undefined);
      if (store) recovered.set(space, store.recovered);
    }
    app.#ledger.interruptActive((run) => {
      const saves = (recovered.get(run.space) ?? []).filter(
        (save) => save.outcome === 'rolled-forward' && save.operationId.startsWith(`${run.runId}-`),
      );
      const details =
        saves.length === 0
          ? undefined
          : {
              recoveredSaves: saves.map(({ operationId, receipts }) => ({ operationId, receipts })),
            };
      return new RepaError('interrupted', 'The daemon stopped while this run was active.', {
        details,
      }).toWire();
    });
    await finishSessionDeletes(app.#ledger, app.#log);
    app.#runs.restartQueues();
    await app.#applyRetention();
    // Once a day while the daemon runs (a timer that keeps no process alive).
    app.#retention = setInterval(() => void app.#applyRetention(), 24 * 60 * 60 * 1000);
    app.#retention.unref();
    return app;
  }

  /** Prunes the runs older than `runs.retentionDays` (application level; 0 keeps them all). */
  async #applyRetention(): Promise<void> {
    try {
      const items = await this.#settings.get({});
      const days = items.find((item) => item.key === 'runs.retentionDays')?.value;
      if (typeof days !== 'number' || days <= 0) return;
      const cutoff = new Date(Date.now() - days * 24 * 60 * 60 * 1000).toISOString();
      const { runs, images } = this.#ledger.prune(cutoff);
      if (runs > 0) {
        this.#log(
          `${new Date().toISOString()} runs.retentionDays ${days}: pruned ${runs} runs and ${images} images\n`,
        );
      }
    } catch (error) {
      this.#log(
        `${new Date().toISOString()} pruning by runs.retentionDays failed: ${RepaError.fromUnknown(error).message}\n`,
      );
    }
  }

  /**
   * Pi's models of this application, opened now when not yet (`not_found` for a daemon `--model`
   * Pi does not know).
   */
  async openModels(): Promise<void> {
    await this.#models.models();
  }

  /** The protocol v1 handlers, for `startRepaServer`: one for every method but `initialize`. */
  handlers(): RepaHandlers {
    return this.#handlers;
  }

  /** True while no run is accepted or running (the daemon may exit when idle long enough). */
  get idle(): boolean {
    return this.#runs.idle;
  }

  /** `daemon.idleMinutes` at the application level (0: never exit when idle). */
  async idleMinutes(): Promise<number> {
    const items = await this.#settings.get({});
    const value = items.find((item) => item.key === 'daemon.idleMinutes')?.value;
    return typeof value === 'number' ? value : 30;
  }

  /**
   * The bytes of a PDF of a space for the page's reader (design R123): the folder reached as
   * `files.read` reaches it, the file read through the space's store with its rules.
   */
  async pdfBytes(space: string, path: string): Promise<{ bytes: Buffer; version: string }> {
    const reached = await reachParams(this.#gate, 'files.read', { space, path });
    return readPdfBytes(await openSpaceStore(reached.space, this.#appDirectory), path);
  }

  /** Accepts a run request (spec R20–R22) and starts it in the background (`run.submit`). */
  async submit(
    params: V1Params<'run.submit'>,
    subscriber?: ConnectionContext,
  ): Promise<V1Result<'run.submit'>> {
    return this.#runs.submit(await reachParams(this.#gate, 'run.submit', params), subscriber);
  }

  /** Starts a new attempt of an ended run, linked to it (`run.retry`, spec R73). */
  retry(
    runId: string,
    requestId: string,
    subscriber?: ConnectionContext,
  ): Promise<V1Result<'run.retry'>> {
    return this.#runs.retry(runId, requestId, subscriber);
  }

  /** Resumes an interrupted or failed run as a new attempt linked to it (`run.resume`, R73). */
  resume(
    runId: string,
    requestId: string,
    subscriber?: ConnectionContext,
  ): Promise<V1Result<'run.resume'>> {
    return this.#runs.resume(runId, requestId, subscriber);
  }

  /** Cancels a run: an accepted one never starts; a running one is aborted through Pi (R66). */
  cancel(runId: string): Promise<RunInfo> {
    return this.#runs.cancel(runId);
  }

  /**
   * Stops accepting, waits up to `graceMs` for active runs, cancels the rest (they end
   * `cancelled`, what Pi saved is kept), then releases every session and the ledger.
   */
  async close(options: { graceMs?: number } = {}): Promise<void> {
    clearInterval(this.#retention);
    await this.#runs.close(options.graceMs ?? 5_000);
    await this.#hosts.disposeAll();
    this.#trust.close();
    this.#ledger.close();
  }
}
