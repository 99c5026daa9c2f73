import { realpath, stat } from 'node:fs/promises';
import { basename, isAbsolute, join } from 'node:path';
import type { ModelChoice, PiConversationHost, SpaceRecovery } from '@repa/host';
import {
  isTerminalRunStatus,
  type ModelSettingsSources,
  RepaError,
  type RunEvent,
  type RunInfo,
  type V1Params,
  type V1Result,
} from '@repa/protocol';
import { SettingsStore } from '@repa/settings';
import { doctorFacts } from './doctor-facts.js';
import { loadHost } from './load-host.js';
import { type AcceptedSettings, RunLedger, type RunRequest } from './run-ledger.js';
import type { ConnectionContext, RepaHandlers } from './server/repa-handlers.js';
import { SpaceTrust } from './space-trust.js';

/** Options of {@link RepaApplication.open}. */
export interface RepaApplicationOptions {
  /** Repa's application directory: settings, grants, the run ledger. */
  appDirectory: string;
  /** Pi's configuration directory (models, auth, Pi settings). Default Pi's own (`~/.pi/agent`). */
  agentDir?: string;
  /** The model every session talks to (decided once per application), or its label and loader. */
  model: ModelChoice | DeferredModelChoice;
  /**
   * Trust every space (for embedders that vet their spaces themselves). Default false: a space is
   * trusted when the learner trusted it (`space.trust`) or Repa made it a space from a plain
   * folder (spec R13).
   */
  trustEverySpace?: boolean;
  /**
   * Test hooks handed as-is to every session's content store (through `PiConversationHost.open`):
   * `step` runs after each named save step and may pause it.
   * @internal
   */
  contentHooks?: {
    step?(step: string, info: { operationId: string; index?: number }): void | Promise<void>;
  };
  /**
   * Test seam handed as-is to every session's host: reads the learning context at run start.
   * @internal
   */
  learningContextReader?: (
    space: string,
  ) => Promise<{ revision: string; body: string; sources: string[] } | null>;
  /** Receives one line per failed run (the daemon log). Default: standard error. */
  log?: (line: string) => void;
}

/** A model known by its label whose Pi runtime is made at its first use (by the first run). */
export interface DeferredModelChoice {
  /** `provider/id`, shown to users. */
  label: string;
  /** Makes the model ready; called once. */
  load(): Promise<ModelChoice>;
}

interface RunWatch {
  seq: number;
  subscribers: Set<ConnectionContext>;
}

/**
 * Repa's application layer: accepts requests durably (settings decided before acceptance, spec
 * R20–R22), runs them on one {@link PiConversationHost} per session without letting one session's
 * run stop another's (R25), and answers the protocol v1 methods.
 */
export class RepaApplication {
  readonly #options: RepaApplicationOptions;
  readonly #ledger: RunLedger;
  readonly #settings: SettingsStore;
  readonly #trust: SpaceTrust;
  readonly #hosts = new Map<string, Promise<PiConversationHost>>();
  /** The trust each cached host was opened with. */
  readonly #hostTrust = new Map<string, boolean>();
  readonly #active = new Map<string, { sessionKey: string; done: Promise<void> }>();
  readonly #watches = new Map<string, RunWatch>();
  /** Session files already found, by `space\0sessionId` (Pi's listing parses every session). */
  readonly #sessionFiles = new Map<string, string>();
  /** The last `context.set` of each space, which the next one waits for. */
  readonly #contextWrites = new Map<string, Promise<void>>();
  /** Steer and follow-up messages handed to a host, by their record's id, until they settle. */
  readonly #deliveries = new Map<string, { sessionKey: string; settled: Promise<void> }>();
  /** The running `context.build`s by build id. */
  readonly #builds = new Map<string, AbortController>();
  /** Prompts of running logins waiting for `login.answer`, by `loginId` then `promptId`. */
  readonly #loginPrompts = new Map<string, Map<string, (value: string) => void>>();
  #closing = false;
  #model: Promise<ModelChoice> | undefined;

  private constructor(options: RepaApplicationOptions) {
    this.#options = options;
    const ledger = join(options.appDirectory, 'ledger.sqlite');
    this.#ledger = new RunLedger(ledger);
    this.#trust = new SpaceTrust(options.appDirectory, ledger, options.trustEverySpace);
    this.#settings = new SettingsStore({
      appDirectory: options.appDirectory,
      isTrusted: (space) => this.#trust.isTrusted(space),
    });
  }

  /**
   * Opens the application. Runs left `accepted` or `running` by a crash become `interrupted` (no
   * automatic re-run, spec R73) and their spaces' pending save intents are resolved; the saves a
   * run had made that recovery finished are attached to its error (`details.recoveredSaves`).
   */
  static async open(options: RepaApplicationOptions): Promise<RepaApplication> {
    const app = new RepaApplication(options);
    const active = app.#ledger.activeRuns();
    const recovered = new Map<string, SpaceRecovery['recovered']>();
    for (const space of new Set(active.map((run) => run.space))) {
      const { recoverSpace } = await loadHost();
      const report = await recoverSpace(space, options.appDirectory).catch(() => undefined);
      if (report) recovered.set(space, report.recovered);
    }
    app.#ledger.interruptActive((run) => {
      const saves = (recovered.get(run.space) ?? []).filter(
        (save) => save.outcome === 'rolled-forward' && save.operationId.startsWith(`${run.runId}-`),
      );
      return new RepaError('interrupted', 'The daemon stopped while this run was active.', {
        ...(saves.length === 0
          ? {}
          : {
              details: {
                recoveredSaves: saves.map(({ operationId, receipts }) => ({
                  operationId,
                  receipts,
                })),
              },
            }),
      }).toWire();
    });
    // Queued runs survive a restart: each session's queue starts again, in order (R24).
    for (const { space, sessionId } of app.#ledger.queuedSessions()) app.#pump(space, sessionId);
    return app;
  }

  /** The model label every session uses. */
  get modelLabel(): string {
    return this.#options.model.label;
  }

  /** The protocol v1 handlers, for `startRepaServer`. */
  handlers(): RepaHandlers {
    return {
      'space.open': (params) => this.openSpace(params),
      'session.create': async (params) => {
        const space = await this.#space(params.space);
        const session = await (await loadHost()).createSpaceSession(space, params.title);
        this.#trust.addSession(space, session.sessionId);
        return { session };
      },
      'session.list': async (params) => {
        const space = await this.#space(params.space);
        const sessions = await (await loadHost()).listSpaceSessions(space);
        return { sessions: await this.#trust.visibleSessions(space, sessions) };
      },
      'session.history': async (params) => {
        const space = await this.#space(params.space);
        await this.#trust.checkSession(space, params.sessionId);
        return { items: await (await loadHost()).readSessionHistory(space, params.sessionId) };
      },
      'session.rename': (params) => this.renameSession(params),
      'session.delete': (params) => this.deleteSession(params),
      'space.trust': async (params) => {
        const space = await this.#space(params.space);
        // What trusting enables is what is restricted before; what distrust restricts, after.
        const before = await this.#trust.restricted(space, this.#settings);
        const wasTrusted = await this.#trust.set(space, params.trusted);
        const restricted = params.trusted
          ? before
          : await this.#trust.restricted(space, this.#settings);
        return { space, trusted: params.trusted, wasTrusted, restricted };
      },
      'run.submit': (params, connection) => this.submit(params, connection),
      'run.get': async (params) => ({ run: this.#ledger.getRun(params.runId) }),
      'run.list': async (params) => ({
        runs: this.#ledger.listRuns({
          ...params,
          ...(params.space ? { space: await this.#space(params.space) } : {}),
        }),
      }),
      'run.subscribe': async (params, connection) => {
        const run = this.#ledger.getRun(params.runId);
        this.#subscribe(run.runId, connection);
        return { run };
      },
      'run.cancel': async (params) => ({ run: await this.cancel(params.runId) }),
      'run.retry': (params, connection) => this.retry(params.runId, params.requestId, connection),
      'run.resume': (params, connection) => this.resume(params.runId, params.requestId, connection),
      'settings.get': async (params) => ({
        items: await this.#settings.get(await this.#scope(params)),
      }),
      'settings.set': async (params) => ({
        item: await this.#settings.set({ ...params, ...(await this.#scope(params)) }),
      }),
      'settings.reset': async (params) => ({
        item: await this.#settings.reset({ ...params, ...(await this.#scope(params)) }),
      }),
      'context.get': (params) => this.getContext(params),
      'context.set': (params) => this.setContext(params),
      'context.build': (params, connection) => this.buildContext(params, connection),
      'context.cancel': async (params) => {
        const build = this.#builds.get(params.buildId);
        build?.abort();
        return { cancelled: build !== undefined };
      },
      'models.list': async (params) => {
        const { listModels, defaultAgentDir } = await loadHost();
        const label = this.modelLabel;
        const models = await listModels({
          agentDir: this.#options.agentDir ?? defaultAgentDir(),
          all: params.all ?? false,
          defaultModel: label,
        });
        return { models, default: label };
      },
      'login.start': (params, connection) => this.login(params, connection),
      'login.answer': async (params) => {
        const waiting = this.#loginPrompts.get(params.loginId);
        const resolve = waiting?.get(params.promptId);
        waiting?.delete(params.promptId);
        resolve?.(params.value);
        return { accepted: resolve !== undefined };
      },
      doctor: async () =>
        doctorFacts({ agentDir: this.#options.agentDir, model: await this.#modelChoice() }),
    };
  }

  /**
   * `context.get`: the space's learning context with its sources' states, whether the next run
   * (of `sessionId`, else of a new session) is given it, and the revision that session last got.
   */
  async getContext(params: V1Params<'context.get'>): Promise<V1Result<'context.get'>> {
    const space = await this.#space(params.space);
    const host = await loadHost();
    const context = await host.getLearningContext(space);
    const items = await this.#settings.get(
      await this.#scope({ space, ...(params.sessionId ? { sessionId: params.sessionId } : {}) }),
    );
    const setting = items.find((item) => item.key === 'prompts.learningContext');
    const provided = { value: setting?.value !== false, source: setting?.source ?? 'default' };
    const shipped =
      context !== null &&
      !(await this.#trust.isTrusted(space)) &&
      !this.#trust.known(space).contexts.includes(host.learningContextDigest(context.body));
    const ignored = shipped
      ? 'This learning context came with the folder and Repa did not write it: no run is given it until you trust the space (repa trust) or set a context of your own.'
      : undefined;
    if (params.sessionId === undefined)
      return { context, provided, ...(ignored ? { ignored } : {}) };
    await this.#trust.checkSession(space, params.sessionId);
    const lastProvidedRevision = await host.lastProvidedRevision(space, params.sessionId);
    return { context, provided, lastProvidedRevision, ...(ignored ? { ignored } : {}) };
  }

  /**
   * `context.set`: replaces the space's learning context when its revision is still the expected
   * one (`stale_version` otherwise). Writes of one space are serialized, so check and write pair up.
   */
  async setContext(params: V1Params<'context.set'>): Promise<V1Result<'context.set'>> {
    const space = await this.#space(params.space);
    const { setLearningContext } = await loadHost();
    const written = await this.#writeContext(space, params.body, () =>
      setLearningContext(space, params),
    );
    return {
      revision: written.revision,
      ...(written.damagedFileKept ? { damagedFileKept: written.damagedFileKept } : {}),
    };
  }

  /**
   * `login.start`: Pi's own login for a provider, its steps sent as `login.progress` to
   * `connection` and its prompts answered by `login.answer`; cancelled when the connection closes.
   */
  async login(
    params: V1Params<'login.start'>,
    connection: ConnectionContext,
  ): Promise<V1Result<'login.start'>> {
    if (this.#loginPrompts.has(params.loginId)) {
      throw new RepaError('busy', `A login ${params.loginId} is already running.`, {
        fix: 'Use a new login id.',
      });
    }
    const waiting = new Map<string, (value: string) => void>();
    this.#loginPrompts.set(params.loginId, waiting);
    const controller = new AbortController();
    const stopWatching = connection.onClose(() => controller.abort());
    try {
      const { loginProvider, defaultAgentDir } = await loadHost();
      return await loginProvider({
        agentDir: this.#options.agentDir ?? defaultAgentDir(),
        provider: params.provider,
        type: params.type,
        signal: controller.signal,
        onStep: (step) => connection.notify('login.progress', { loginId: params.loginId, ...step }),
        answer: (promptId, signal) =>
          new Promise<string>((resolve, reject) => {
            const cancel = () => {
              waiting.delete(promptId);
              reject(new RepaError('cancelled', 'The login prompt was cancelled.'));
            };
            if (controller.signal.aborted || signal?.aborted) return cancel();
            controller.signal.addEventListener('abort', cancel, { once: true });
            signal?.addEventListener('abort', cancel, { once: true });
            waiting.set(promptId, resolve);
          }),
      });
    } finally {
      stopWatching();
      this.#loginPrompts.delete(params.loginId);
    }
  }

  /**
   * `context.build`: builds a study context from documents of the space (one standalone model
   * call, or extraction on `repa-offline`), telling its steps as `context.progress` to `connection`;
   * cancelled by `context.cancel` or by the connection closing. Nothing is written unless it
   * completes; the write is atomic and revisioned like `context.set`.
   */
  async buildContext(
    params: V1Params<'context.build'>,
    connection: ConnectionContext,
  ): Promise<V1Result<'context.build'>> {
    const space = await this.#space(params.space);
    if (this.#builds.has(params.buildId)) {
      throw new RepaError('busy', `A context build ${params.buildId} is already running.`, {
        fix: 'Use a new build id.',
      });
    }
    const controller = new AbortController();
    this.#builds.set(params.buildId, controller);
    const stopWatching = connection.onClose(() => controller.abort());
    const progress = (step: string, message: string) =>
      connection.notify('context.progress', { buildId: params.buildId, step, message });
    try {
      const host = await loadHost();
      const built = await host.buildLearningContext(space, await this.#modelChoice(), {
        sources: params.sources,
        instructions: params.instructions,
        signal: controller.signal,
        onProgress: ({ step, message }) => progress(step, message),
      });
      const written = await this.#writeContext(space, built.body, async () => {
        if (controller.signal.aborted) {
          throw new RepaError(
            'cancelled',
            'The learning-context build was cancelled; nothing was written.',
          );
        }
        progress('writing', 'writing the learning context');
        return host.setLearningContext(space, {
          body: built.body,
          sources: built.sources,
          sourceVersions: built.sourceVersions,
          expectedRevision: params.expectedRevision,
          force: params.force,
        });
      });
      return {
        revision: written.revision,
        model: built.model,
        extractive: built.extractive,
        cut: built.cut.map((item) => ({ ...item })),
        ...(written.damagedFileKept ? { damagedFileKept: written.damagedFileKept } : {}),
      };
    } finally {
      stopWatching();
      this.#builds.delete(params.buildId);
    }
  }

  /** Runs `write` after the space's earlier context writes, so check and write pair up. */
  async #writeContext<T>(space: string, body: string, write: () => Promise<T>): Promise<T> {
    // Recorded before the write: a context Repa wrote is never taken for one shipped (spec R13).
    const digest = (await loadHost()).learningContextDigest(body);
    const previous = this.#contextWrites.get(space) ?? Promise.resolve();
    const written = previous.then(() => {
      this.#trust.addContext(space, digest);
      return write();
    });
    const settled = written.then(
      () => undefined,
      () => undefined,
    );
    this.#contextWrites.set(space, settled);
    try {
      return await written;
    } finally {
      if (this.#contextWrites.get(space) === settled) this.#contextWrites.delete(space);
    }
  }

  /** `session.rename`: a new title, written through the session's host (one writer per file). */
  async renameSession(params: V1Params<'session.rename'>): Promise<V1Result<'session.rename'>> {
    const space = await this.#space(params.space);
    const title = params.title.replace(/\s+/g, ' ').trim();
    if (title === '') {
      throw new RepaError('invalid_request', 'The title is blank.', { fix: 'Pass a title.' });
    }
    await this.#trust.checkSession(space, params.sessionId);
    const host = await this.#host(`${space}\0${params.sessionId}`, space, params.sessionId);
    host.setTitle(title);
    const sessions = await (await loadHost()).listSpaceSessions(space);
    const session = sessions.find((listed) => listed.sessionId === params.sessionId);
    if (!session) throw new RepaError('not_found', `Session ${params.sessionId} went away.`);
    return { session };
  }

  /** `session.delete`: removes the session file; `busy` while one of its runs is active. */
  async deleteSession(params: V1Params<'session.delete'>): Promise<V1Result<'session.delete'>> {
    const space = await this.#space(params.space);
    const sessionKey = `${space}\0${params.sessionId}`;
    const active = this.#ledger
      .activeRuns()
      .find((run) => run.space === space && run.sessionId === params.sessionId);
    if (active || [...this.#active.values()].some((run) => run.sessionKey === sessionKey)) {
      throw new RepaError('busy', `Session ${params.sessionId} has an active run.`, {
        fix: `Wait for it to end or cancel it (repa runs cancel ${active?.runId ?? 'RUN_ID'}), then delete the session.`,
      });
    }
    const host = this.#hosts.get(sessionKey);
    this.#hosts.delete(sessionKey);
    this.#sessionFiles.delete(sessionKey);
    await host?.then((opened) => opened.dispose()).catch(() => undefined);
    await (await loadHost()).deleteSpaceSession(space, params.sessionId);
    return { sessionId: params.sessionId };
  }

  /** True while no run is accepted or running (the daemon may exit when idle long enough). */
  get idle(): boolean {
    return this.#active.size === 0 && this.#ledger.activeRuns().length === 0;
  }

  /** `daemon.idleMinutes` at the application level (0: never exit when idle). */
  async idleMinutes(): Promise<number> {
    const items = await this.#settings.get({});
    const value = items.find((item) => item.key === 'daemon.idleMinutes')?.value;
    return typeof value === 'number' ? value : 30;
  }

  /** `space.open`: the space's real root, name and current learning context. */
  async openSpace(params: V1Params<'space.open'>): Promise<V1Result<'space.open'>> {
    const root = await this.#space(params.root);
    const view = await (await loadHost()).getLearningContext(root);
    const learningContext = view
      ? { revision: view.revision, chars: view.body.length, sources: view.sources }
      : null;
    const trustReason = await this.#trust.reasonOf(root);
    const restricted = await this.#trust.restricted(root, this.#settings);
    return {
      space: {
        root,
        name: basename(root),
        learningContext,
        trusted: trustReason !== undefined,
        ...(trustReason ? { trustReason } : {}),
        restricted,
      },
    };
  }

  /** Accepts a run request (spec R20–R22) and starts it in the background. */
  async submit(
    params: V1Params<'run.submit'>,
    subscriber?: ConnectionContext,
  ): Promise<V1Result<'run.submit'>> {
    const space = await this.#space(params.space);
    return this.#accept({ ...params, space }, subscriber);
  }

  /** Starts a new attempt of an ended run, linked to it (no automatic retry, spec R73). */
  async retry(
    runId: string,
    requestId: string,
    subscriber?: ConnectionContext,
  ): Promise<V1Result<'run.retry'>> {
    const original = this.#ledger.getRun(runId);
    if (original.targetRunId) {
      throw new RepaError(
        'invalid_request',
        `Run ${runId} is a ${original.delivery} message, not a run.`,
        {
          fix: 'Retry the run it was delivered into, or submit the text again.',
        },
      );
    }
    // A retry keeps the original's one-run overrides (settings levels are read again).
    const overrides = Object.fromEntries(
      (['model', 'thinkingLevel'] as const)
        .filter((key) => original.modelSettingsSources?.[key] === 'run')
        .map((key) => [key, original.modelSettings?.[key]]),
    );
    if (!isTerminalRunStatus(original.status)) {
      throw new RepaError('busy', `Run ${runId} is still ${original.status}.`, {
        fix: 'Wait for it to end, or cancel it, before retrying.',
      });
    }
    return this.#accept(
      {
        requestId,
        space: original.space,
        sessionId: original.sessionId,
        input: this.#ledger.inputOf(runId),
        retryOf: runId,
        ...(Object.keys(overrides).length > 0 ? { overrides } : {}),
      },
      subscriber,
    );
  }

  /**
   * Resumes an interrupted or failed run as a new attempt linked to it (`resumeOf`), in the same
   * Pi session from where its history ends, with the original's accepted settings. Never
   * automatic (R1, R73).
   */
  async resume(
    runId: string,
    requestId: string,
    subscriber?: ConnectionContext,
  ): Promise<V1Result<'run.resume'>> {
    const original = this.#ledger.getRun(runId);
    if (
      original.targetRunId ||
      (original.status !== 'interrupted' && original.status !== 'failed')
    ) {
      throw new RepaError(
        'invalid_request',
        `Run ${runId} is ${original.targetRunId ? `a ${original.delivery} message` : original.status}; only an interrupted or failed run can be resumed.`,
        { fix: 'Retry it (repa runs retry) or submit a new request instead.' },
      );
    }
    return this.#accept(
      {
        requestId,
        space: original.space,
        sessionId: original.sessionId,
        input: this.#ledger.inputOf(runId),
        resumeOf: runId,
      },
      subscriber,
      {
        promptSettings: original.promptSettings,
        settingsRevisions: original.settingsRevisions,
        ...(original.settingsSources ? { settingsSources: original.settingsSources } : {}),
        ...(original.modelSettings ? { modelSettings: original.modelSettings } : {}),
        ...(original.modelSettingsSources
          ? { modelSettingsSources: original.modelSettingsSources }
          : {}),
      },
    );
  }

  /**
   * Accepts a request; `subscriber` gets the run's events from the first one on. `accepted`: the
   * settings already decided for it (a resumption keeps the original's); otherwise read now.
   */
  async #accept(
    request: RunRequest,
    subscriber?: ConnectionContext,
    accepted?: AcceptedSettings,
  ): Promise<V1Result<'run.submit'>> {
    if (this.#closing) throw new RepaError('daemon_unavailable', 'The daemon is shutting down.');
    // R21: a known request id answers from the ledger before anything else is read.
    const known = this.#ledger.lookup(request);
    if (known) {
      if (subscriber) this.#subscribe(known.run.runId, subscriber);
      return { ...known };
    }
    await this.#trust.checkSession(request.space, request.sessionId);
    await this.#sessionFile(request.space, request.sessionId);
    // A resumption's input is already in the session's history: nothing to read or check again.
    if (accepted) return this.#record(request, accepted, subscriber);
    // Images and attachments are checked before acceptance (`invalid_request`, `path_outside_space`).
    await (await loadHost()).checkRunInput(
      request.space,
      this.#options.appDirectory,
      request.input,
    );
    if (request.delivery === 'steer' || request.delivery === 'followUp') {
      return this.#acceptDelivery(request, request.delivery, subscriber);
    }
    const snapshot = await this.#settings.resolveForRun(request.space, request.sessionId);
    const modelSettings = { ...snapshot.modelSettings };
    const modelSettingsSources: ModelSettingsSources = { ...snapshot.modelSources };
    for (const key of ['model', 'thinkingLevel'] as const) {
      const value = request.overrides?.[key];
      if (value === undefined) continue;
      Object.assign(modelSettings, { [key]: value });
      modelSettingsSources[key] = 'run';
    }
    return this.#record(
      request,
      {
        promptSettings: snapshot.promptSettings,
        settingsRevisions: snapshot.revisions,
        settingsSources: snapshot.sources,
        modelSettings,
        modelSettingsSources,
      },
      subscriber,
    );
  }

  /** Records an accepted request in the ledger and starts (or queues) its run. */
  #record(
    request: RunRequest,
    settings: AcceptedSettings,
    subscriber?: ConnectionContext,
  ): V1Result<'run.submit'> {
    const acceptance = this.#ledger.accept(request, settings);
    if (subscriber) this.#subscribe(acceptance.run.runId, subscriber);
    if (!acceptance.resubmitted) {
      if (request.delivery === 'queue') this.#pump(request.space, request.sessionId);
      else this.#start(acceptance.run);
    }
    return { ...acceptance, run: this.#ledger.getRun(acceptance.run.runId) };
  }

  /**
   * Accepts a `steer` or `followUp` request into the session's running run (`no_active_run`
   * when there is none) and hands it to Pi; its record ends `succeeded` once the model has it,
   * or `failed` with `run_finished` when the run ended first.
   */
  async #acceptDelivery(
    request: RunRequest,
    kind: 'steer' | 'followUp',
    subscriber?: ConnectionContext,
  ): Promise<V1Result<'run.submit'>> {
    if (request.input.attachments?.length) {
      throw new RepaError('invalid_request', `A ${kind} message cannot carry attached documents.`, {
        fix: 'Attach documents to a new or queued run, or name them in the text.',
        details: { field: 'input.attachments' },
      });
    }
    const sessionKey = `${request.space}\0${request.sessionId}`;
    const target = [...this.#active.entries()]
      .filter(([, active]) => active.sessionKey === sessionKey)
      .map(([runId]) => this.#ledger.getRun(runId))
      .find((run) => run.status === 'running');
    const host = this.#hosts.get(sessionKey);
    if (!target || !host) {
      throw new RepaError('no_active_run', `Session ${request.sessionId} has no running run.`, {
        fix: `Submit the text as a new run (delivery new or queue) instead of ${kind}.`,
      });
    }
    const acceptance = this.#ledger.accept(
      { ...request, targetRunId: target.runId },
      {
        promptSettings: target.promptSettings,
        settingsRevisions: target.settingsRevisions,
        ...(target.settingsSources ? { settingsSources: target.settingsSources } : {}),
        ...(target.modelSettings ? { modelSettings: target.modelSettings } : {}),
        ...(target.modelSettingsSources
          ? { modelSettingsSources: target.modelSettingsSources }
          : {}),
      },
    );
    const record = acceptance.run;
    if (subscriber) this.#subscribe(record.runId, subscriber);
    if (acceptance.resubmitted) return { ...acceptance };
    this.#ledger.markRunning(record.runId);
    this.#emit(record, { type: 'status', status: 'running' });
    const { text, images } = request.input;
    const delivered = host.then((h) =>
      h.deliver(kind, text, { requestRunId: record.runId, ...(images ? { images } : {}) }),
    );
    const settled = delivered
      .then(
        () => {
          this.#ledger.finish(record.runId, { status: 'succeeded' });
          this.#emit(record, { type: 'status', status: 'succeeded' });
        },
        (error: unknown) => {
          let failure = RepaError.fromUnknown(error);
          // The host had already let the run go: for this request that is the run ending first.
          if (failure.code === 'no_active_run') {
            failure = new RepaError(
              'run_finished',
              'The run ended before the message was delivered.',
            );
          }
          const wire = failure.toWire();
          const status = failure.code === 'cancelled' ? 'cancelled' : 'failed';
          this.#ledger.finish(record.runId, { status, error: wire });
          this.#emit(record, { type: 'status', status, error: wire });
        },
      )
      .finally(() => this.#deliveries.delete(record.runId));
    this.#deliveries.set(record.runId, { sessionKey, settled });
    return { ...acceptance, run: this.#ledger.getRun(record.runId) };
  }

  #start(run: RunInfo): void {
    const sessionKey = `${run.space}\0${run.sessionId}`;
    const done = this.#execute(run, sessionKey).finally(() => {
      this.#active.delete(run.runId);
      this.#pump(run.space, run.sessionId);
    });
    this.#active.set(run.runId, { sessionKey, done });
  }

  /** Starts the first queued run of a session when none of its runs is active here. */
  #pump(space: string, sessionId: string): void {
    if (this.#closing) return;
    const sessionKey = `${space}\0${sessionId}`;
    for (const active of this.#active.values()) if (active.sessionKey === sessionKey) return;
    const next = this.#ledger.nextQueued(space, sessionId);
    if (next) this.#start(next);
  }

  async #execute(run: RunInfo, sessionKey: string): Promise<void> {
    const emit = (event: RunEvent) => this.#emit(run, event);
    let host: PiConversationHost;
    // Trust is read before the run counts as running: from there on a cancel must reach the host.
    const trusted = await this.#trust.isTrusted(run.space);
    try {
      host = await this.#host(sessionKey, run.space, run.sessionId, trusted);
    } catch (error) {
      const wire = RepaError.fromUnknown(error).toWire();
      this.#ledger.finish(run.runId, { status: 'failed', error: wire });
      this.#logFailure(run.runId, wire);
      emit({ type: 'status', status: 'failed', error: wire });
      return;
    }
    const restricted = await this.#trust.restricted(run.space, this.#settings);
    if (this.#ledger.getRun(run.runId).status !== 'accepted') return; // Cancelled before start.
    this.#ledger.markRunning(run.runId);
    emit({ type: 'status', status: 'running' });
    const input = this.#ledger.inputOf(run.runId);
    const options = {
      onEvent: emit,
      runId: run.runId,
      knownContexts: this.#trust.known(run.space).contexts,
      ...(restricted.length > 0 ? { restricted } : {}),
      ...(run.settingsSources ? { sources: run.settingsSources } : {}),
      ...(run.modelSettings ? { modelSettings: run.modelSettings } : {}),
    };
    // A resumption continues the history, whose user message already carries images and documents.
    const outcome = await (run.resumeOf
      ? host.resume(run.promptSettings, options)
      : host.send(input.text, run.promptSettings, {
          ...options,
          ...(input.images ? { images: input.images } : {}),
          ...(input.attachments ? { attachments: input.attachments } : {}),
        })
    ).catch((error: unknown) => ({
      status: 'failed' as const,
      error: RepaError.fromUnknown(error).toWire(),
      prompt: undefined,
      output: undefined,
    }));
    if ('attachedSources' in outcome && outcome.attachedSources) {
      this.#ledger.recordAttachedSources(run.runId, outcome.attachedSources);
    }
    const finished = this.#ledger.finish(run.runId, {
      status: outcome.status,
      ...(outcome.prompt ? { promptSections: outcome.prompt.report } : {}),
      ...(outcome.error ? { error: outcome.error } : {}),
      ...(outcome.output !== undefined ? { output: outcome.output } : {}),
      ...('usage' in outcome && outcome.usage ? { usage: outcome.usage } : {}),
      ...('model' in outcome && outcome.model ? { model: outcome.model } : {}),
      ...('connection' in outcome && outcome.connection ? { connection: outcome.connection } : {}),
      ...('restricted' in outcome && outcome.restricted ? { restricted: outcome.restricted } : {}),
    });
    if (finished.status === 'failed' && finished.error) this.#logFailure(run.runId, finished.error);
    emit({
      type: 'status',
      status: finished.status,
      ...(finished.error ? { error: finished.error } : {}),
    });
  }

  /** Writes a failed run to the daemon log: time, run id, code, message and the error's facts. */
  #logFailure(runId: string, error: { code: string; message: string; details?: unknown }): void {
    const details = error.details === undefined ? '' : ` ${JSON.stringify(error.details)}`;
    const line = `${new Date().toISOString()} run ${runId} failed: ${error.code}: ${error.message}${details}\n`;
    (this.#options.log ?? ((text: string) => process.stderr.write(text)))(line);
  }

  /** Cancels a run: an accepted one never starts; a running one is aborted through Pi (R66). */
  async cancel(runId: string): Promise<RunInfo> {
    const run = this.#ledger.getRun(runId);
    if (run.status === 'accepted') {
      const cancelled = this.#ledger.finish(runId, {
        status: 'cancelled',
        error: new RepaError('cancelled', 'The run was cancelled before it started.').toWire(),
      });
      this.#emit(cancelled, {
        type: 'status',
        status: 'cancelled',
        ...(cancelled.error ? { error: cancelled.error } : {}),
      });
      return cancelled;
    }
    const delivery = this.#deliveries.get(runId);
    if (run.status === 'running' && delivery) {
      // A steer or follow-up not yet delivered is taken back; a delivered one stays delivered.
      await (await this.#hosts.get(delivery.sessionKey))?.withdraw(runId);
      await delivery.settled;
      return this.#ledger.getRun(runId);
    }
    const active = this.#active.get(runId);
    if (run.status === 'running' && active) {
      const host = await this.#hosts.get(active.sessionKey);
      await host?.cancel();
      await active.done;
    }
    return this.#ledger.getRun(runId);
  }

  /**
   * The session's host, opened with the space's trust; with `trusted` given, a host opened under
   * the other trust is disposed and opened again (trust changed between runs).
   */
  async #host(
    sessionKey: string,
    space: string,
    sessionId: string,
    trusted?: boolean,
  ): Promise<PiConversationHost> {
    let host = this.#hosts.get(sessionKey);
    if (host && trusted !== undefined && this.#hostTrust.get(sessionKey) !== trusted) {
      this.#hosts.delete(sessionKey);
      await host.then((opened) => opened.dispose()).catch(() => undefined);
      host = undefined;
    }
    if (!host) {
      const opening = trusted ?? (await this.#trust.isTrusted(space));
      this.#hostTrust.set(sessionKey, opening);
      host = this.#openHost(space, sessionId, opening);
      // A failed open is not cached: the next run tries again (e.g. after the file was repaired).
      host.catch(() => this.#hosts.delete(sessionKey));
      this.#hosts.set(sessionKey, host);
    }
    return host;
  }

  async #openHost(space: string, sessionId: string, trusted: boolean): Promise<PiConversationHost> {
    const sessionFile = await this.#sessionFile(space, sessionId);
    const [{ PiConversationHost, defaultAgentDir }, model] = await Promise.all([
      loadHost(),
      this.#modelChoice(),
    ]);
    return PiConversationHost.open({
      space,
      sessionFile,
      appDirectory: this.#options.appDirectory,
      agentDir: this.#options.agentDir ?? defaultAgentDir(),
      modelRuntime: model.modelRuntime,
      model: model.model,
      trusted,
      ...(this.#options.contentHooks ? { contentHooks: this.#options.contentHooks } : {}),
      ...(this.#options.learningContextReader
        ? { learningContextReader: this.#options.learningContextReader }
        : {}),
    });
  }

  /** The model, made ready once (a deferred one by the first run that needs it). */
  #modelChoice(): Promise<ModelChoice> {
    const model = this.#options.model;
    this.#model ??= 'load' in model ? model.load() : Promise.resolve(model);
    return this.#model;
  }

  async #sessionFile(space: string, sessionId: string): Promise<string> {
    const key = `${space}\0${sessionId}`;
    const known = this.#sessionFiles.get(key);
    if (known) return known;
    const file = await (await loadHost()).findSessionFile(space, sessionId);
    this.#sessionFiles.set(key, file);
    return file;
  }

  #subscribe(runId: string, connection: ConnectionContext): void {
    const watch = this.#watch(runId);
    if (watch.subscribers.has(connection)) return;
    watch.subscribers.add(connection);
    connection.onClose(() => watch.subscribers.delete(connection));
  }

  #watch(runId: string): RunWatch {
    let watch = this.#watches.get(runId);
    if (!watch) {
      watch = { seq: 0, subscribers: new Set() };
      this.#watches.set(runId, watch);
    }
    return watch;
  }

  #emit(run: RunInfo, event: RunEvent): void {
    const watch = this.#watch(run.runId);
    watch.seq += 1;
    for (const connection of watch.subscribers) {
      connection.notify('run.event', {
        runId: run.runId,
        sessionId: run.sessionId,
        seq: watch.seq,
        event,
      });
    }
    if (event.type === 'status' && isTerminalRunStatus(event.status)) {
      this.#watches.delete(run.runId);
    }
  }

  async #space(root: string): Promise<string> {
    if (!isAbsolute(root)) {
      throw new RepaError('invalid_request', `The space root must be an absolute path: ${root}`, {
        fix: 'Pass the absolute path of the space folder.',
      });
    }
    let real: string;
    try {
      real = await realpath(root);
      if (!(await stat(real)).isDirectory()) throw new Error('not a directory');
    } catch {
      throw new RepaError('not_found', `There is no space folder at ${root}.`, {
        fix: 'Create the folder first, or pass the path of an existing space.',
      });
    }
    await this.#trust.admit(real);
    return real;
  }

  async #scope(params: {
    space?: string;
    sessionId?: string;
  }): Promise<{ space?: string; sessionId?: string }> {
    return {
      ...(params.space ? { space: await this.#space(params.space) } : {}),
      ...(params.sessionId ? { sessionId: params.sessionId } : {}),
    };
  }

  /**
   * Stops accepting, waits up to `graceMs` for active runs, cancels the rest (they end
   * `cancelled`, what Pi saved is kept), then releases every session and the ledger.
   */
  async close(options: { graceMs?: number } = {}): Promise<void> {
    this.#closing = true;
    const pending = [...this.#active.values()].map((active) => active.done);
    // Not unref'd: a held run keeps no handle open, and the wait itself must keep the process up.
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), options.graceMs ?? 5_000);
    });
    const result = await Promise.race([Promise.all(pending), timeout]);
    clearTimeout(timer);
    if (result === 'timeout') {
      for (const runId of this.#active.keys()) await this.cancel(runId).catch(() => undefined);
    }
    for (const host of this.#hosts.values()) {
      await host.then((h) => h.dispose()).catch(() => undefined);
    }
    this.#trust.close();
    this.#ledger.close();
  }
}
