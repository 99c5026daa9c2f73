import { randomUUID } from 'node:crypto';
import type { AgentSession, SessionManager } from '@earendil-works/pi-coding-agent';
import { ContentObserver, ContentStore } from '@repa/content';
import type { AssembledSystemPrompt } from '@repa/prompt';
import {
  type ApprovalAnswer,
  type PackageResource,
  type PromptSettings,
  RepaError,
  type ResourceDiagnostic,
  type RewindResult,
} from '@repa/protocol';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';
import { HostBashTool } from '../bash-settings.js';
import { hideMachineFolders } from '../machine-folders.js';
import { packageReport } from '../packages/index.js';
import { markRun, RESUME_MESSAGE, RESUME_NOTE, resumeModeOf } from '../sessions/index.js';
import { type ActiveRun, onPiEvent, startActiveRun } from './active-run.js';
import { type AssembledSession, assembleSession } from './assemble-session.js';
import { type CompactionOutcome, CompactionWatch, compactSession } from './compact-session.js';
import type { PiConversationHostOptions, ResumeTarget, SendOptions } from './host-options.js';
import { applyModelSettings } from './model-settings.js';
import { type DeliverOptions, RunDeliveries } from './pi-queues.js';
import { PromptCache } from './prompt-cache.js';
import { type RewindRequest, rewindRun } from './rewind-conversation.js';
import { endedRunOutcome, thrownRunOutcome } from './run-answer.js';
import { cancelledOutcome, type RunOutcome } from './run-outcome.js';
import { appendRunNotices, prepareResume, readRunInputs } from './run-preparation.js';

/**
 * One Repa session on the real Pi SDK: Pi runs the model, history, tool loop, retries and
 * compaction; this host decides what the model is shown and saves files through the content store.
 * Its parts: the session's assembly (`assemble-session.ts`), its prompts
 * (`prompt-cache.ts`), a run's model settings, deliveries and outcome; the class runs a run.
 */
export class PiConversationHost {
  readonly #options: PiConversationHostOptions;
  readonly #store: ContentStore;
  readonly #observer: ContentObserver;
  #session!: AgentSession;
  #sessionManager!: SessionManager;
  #prompts!: PromptCache;
  readonly #compactions = new CompactionWatch();
  /** Every content and search tool this host registered (the default of `tools.enabled`). */
  #toolNames: readonly string[] = [];
  /** What Pi packages brought to this session, with Pi's loading diagnostics (spec R75). */
  #packages: Pick<AssembledSession, 'extensionToolNames' | 'packageResources' | 'diagnostics'> = {
    extensionToolNames: [],
    packageResources: [],
    diagnostics: [],
  };
  #run: ActiveRun | undefined;
  #compacting = false;
  /** True while a rewind works on this session (no run starts meanwhile). */
  #rewinding = false;
  /** The settings of the last run; used for turns Pi starts without a run (idle custom messages). */
  #lastSettings: PromptSettings | undefined;
  /** The sandboxed `bash` tool: registered, active only in runs whose `tools.bash` allows it. */
  readonly #bash = new HostBashTool();

  private constructor(options: PiConversationHostOptions, store: ContentStore) {
    this.#options = options;
    this.#store = store;
    this.#observer = new ContentObserver(store);
  }

  /** Opens (or creates) a session of a space and builds its Pi `AgentSession`. */
  static async open(options: PiConversationHostOptions): Promise<PiConversationHost> {
    hideMachineFolders({ agentDir: options.agentDir, appDirectory: options.appDirectory });
    const store = await ContentStore.open({
      root: options.space,
      appDirectory: options.appDirectory,
      ...(options.contentHooks ? { hooks: options.contentHooks } : {}),
    });
    const host = new PiConversationHost(options, store);
    await host.#build();
    return host;
  }

  /** The Pi session id. */
  get sessionId(): string {
    return this.#sessionManager.getSessionId();
  }

  /** The Pi session file. */
  get sessionFile(): string {
    const file = this.#sessionManager.getSessionFile();
    if (!file) throw new RepaError('internal', 'The session has no file.');
    return file;
  }

  /** The Pi `AgentSession` (for inspection; Repa never writes its messages or prompt state). */
  get session(): AgentSession {
    return this.#session;
  }

  /** The session's title (Pi's session name), if it has one. */
  get title(): string | undefined {
    return this.#sessionManager.getSessionName();
  }

  /** Gives the session a title (a Pi `session_info` entry; line breaks become spaces). */
  setTitle(title: string): void {
    this.#session.setSessionName(title);
  }

  /** What Pi packages (and the learner's own Pi folders) brought to this session (spec R75). */
  get packageResources(): readonly PackageResource[] {
    return this.#packages.packageResources;
  }

  /** Pi's resource-loading diagnostics of this session, refused extensions included. */
  get resourceDiagnostics(): readonly ResourceDiagnostic[] {
    return this.#packages.diagnostics;
  }

  /** True while a run, a compaction or a rewind is active. */
  get busy(): boolean {
    return this.#run !== undefined || this.#compacting || this.#rewinding;
  }

  /** `busy` while a run, a compaction or a rewind is active. */
  #refuseWhileBusy(): void {
    if (this.busy) {
      throw new RepaError(
        'busy',
        `Session ${this.sessionId} has an active run, compaction or rewind.`,
      );
    }
  }

  /**
   * Compacts the session's history now through Pi's `compact()` (spec R73): `instructions` are
   * Pi's custom instructions for the summary; `settings` say which sources are off, so the summary
   * input leaves them out (R46), and the learning context is put back after the summary as after
   * any compaction (R42). `busy` while a run is active.
   */
  async compact(
    instructions: string | undefined,
    settings: PromptSettings,
  ): Promise<CompactionOutcome> {
    this.#refuseWhileBusy();
    this.#compacting = true;
    this.#lastSettings = settings;
    try {
      return await compactSession(this.#session, instructions, this.#options, this.#compactions);
    } finally {
      this.#compacting = false;
    }
  }

  async #build(): Promise<void> {
    const assembled = await assembleSession(
      this.#options,
      { store: this.#store, observer: this.#observer, bash: this.#bash },
      {
        settings: () => this.#run?.settings ?? this.#lastSettings,
        prompt: () => this.#run?.prompt ?? this.#prompts?.last,
        assemblePrompt: (settings) => this.#assemblePrompt(settings),
        receipts: () => this.#run?.receipts ?? [],
        emit: (event) => this.#run?.emit(event),
        operationId: () => {
          const run = this.#run;
          return run?.runId === undefined ? randomUUID() : `${run.runId}-${++run.saves}`;
        },
        offeredSkills: () => this.#prompts?.offeredSkills ?? [],
        compactions: this.#compactions,
        approvals: () => this.#run?.approvals,
        ocrLanguages: () => this.#run?.ocrLanguages,
      },
    );
    this.#session = assembled.session;
    this.#sessionManager = assembled.sessionManager;
    this.#toolNames = assembled.toolNames;
    this.#packages = assembled;
    this.#prompts = new PromptCache({
      session: assembled.session,
      space: this.#options.space,
      appDirectory: this.#options.appDirectory,
      trusted: this.#options.trusted ?? false,
      withheldInstructions: assembled.withheldInstructions,
      now: this.#options.now,
    });
  }

  /** The active run's prompt, else one assembled (or reused) for `settings`. */
  #assemblePrompt(settings: PromptSettings | undefined): AssembledSystemPrompt {
    const run = this.#run;
    if (run?.prompt) return run.prompt;
    // A turn Pi starts before any run (an extension's idle custom message) gets the defaults.
    const prompt = this.#prompts.assemble(
      settings ?? this.#lastSettings ?? DEFAULT_PROMPT_SETTINGS,
      run?.sources,
      run?.study,
    );
    if (run) run.prompt = prompt;
    return prompt;
  }

  /**
   * Runs one user request with the settings decided at acceptance (spec R23). Reads the space's
   * learning context first: a failure ends the run before the message enters Pi history (R31).
   */
  send(text: string, settings: PromptSettings, options: SendOptions = {}): Promise<RunOutcome> {
    return this.#perform(text, settings, options);
  }

  /**
   * Resumes an interrupted or failed run (spec R73) with the settings decided for the new attempt:
   * when the original's message entered the history, the session continues from where it ends (a
   * failed reply left out of the model's view, as Pi's own retry does) through Pi's
   * `sendCustomMessage(…, { triggerTurn: true })`, so Pi's automatic retry, overflow recovery and
   * settling apply as to any run; when it never entered, the original's request is sent now (its
   * text in `original`, its images and documents in `options`). `not_last_run` when a later run
   * entered the history; `invalid_request` when the history ends with a complete reply.
   */
  async resume(
    original: ResumeTarget,
    settings: PromptSettings,
    options: SendOptions = {},
  ): Promise<RunOutcome> {
    const mode = resumeModeOf(this.#sessionManager.getBranch(), original.runId, original.marked);
    return this.#perform(mode === 'continue' ? undefined : original.text, settings, options);
  }

  async #perform(
    text: string | undefined,
    settings: PromptSettings,
    options: SendOptions,
  ): Promise<RunOutcome> {
    this.#refuseWhileBusy();
    const emit = options.onEvent ?? (() => {});
    // The run exists (busy, cancellable) from here on: a cancel while the context is read counts.
    const run = startActiveRun(
      settings,
      options,
      new RunDeliveries(this.#session, this.#store, emit),
    );
    this.#run = run;
    let unsubscribe = () => {};
    try {
      const context = {
        space: this.#options.space,
        trusted: this.#options.trusted ?? false,
        knownContexts: options.knownContexts,
        reader: this.#options.learningContextReader,
      };
      const inputs = await readRunInputs(run, options, {
        store: this.#store,
        observer: this.#observer,
        context: settings.learningContext ? context : undefined,
      });
      if ('stop' in inputs) return inputs.stop;
      const { images, attached } = inputs;
      // Spec R72: the model settings change only here, between runs.
      if (options.modelSettings) {
        await applyModelSettings(this.#session, options.modelSettings, {
          modelRuntime: this.#options.modelRuntime,
          model: this.#options.model,
          thinkingLevel: this.#options.thinkingLevel,
          toolNames: this.#toolNames,
          extensionToolNames: this.#packages.extensionToolNames,
          bash: this.#bash,
          connection: options.connection,
        });
      }
      // Where the run begins in Pi's tree: a rewind of its conversation branches from here.
      if (run.runId !== undefined) markRun(this.#sessionManager, run.runId);
      if (text === undefined) prepareResume(this.#session, this.#sessionManager);
      this.#lastSettings = settings;
      unsubscribe = this.#session.subscribe((event) => onPiEvent(this.#session, run, event));
      await this.#prompts.refreshMaterials();
      const prompt = this.#assemblePrompt(settings);
      emit({
        type: 'prompt-sections',
        sections: prompt.report,
        ...(run.restricted.length > 0 ? { restricted: run.restricted } : {}),
        ...packageReport(this.#packages.packageResources),
      });
      await appendRunNotices(this.#observer, this.#sessionManager, settings, run);
      this.#prompts.tellNewDay(this.#sessionManager);
      if (run.cancelRequested) return cancelledOutcome(prompt);
      if (attached) {
        emit({ type: 'sources-attached', sources: attached.sources });
      }
      if (text === undefined) {
        // Pi 0.87.1 has no public continue; a triggering custom message runs Pi's whole prompt
        // path (automatic retry, overflow recovery, settle events), where `Agent.continue()`
        // alone would skip them.
        await this.#session.sendCustomMessage(
          { customType: RESUME_MESSAGE, content: RESUME_NOTE, display: false },
          { triggerTurn: true },
        );
      } else {
        const message = attached ? `${text}\n\n${attached.text}` : text;
        await this.#session.prompt(message, images.length > 0 ? { images } : undefined);
      }
      const end = {
        session: this.#session,
        sessionManager: this.#sessionManager,
        store: this.#store,
        fallback: { ...this.#options, connection: options.connection },
      };
      return await endedRunOutcome(end, prompt, run, attached);
    } catch (error) {
      return thrownRunOutcome(this.#session, this.#options.modelRuntime, run, error);
    } finally {
      run.deliveries.close();
      unsubscribe();
      this.#run = undefined;
      run.deliveries.failPending();
    }
  }

  /**
   * Delivers a message into the active run through Pi: `steer` at its next turn boundary,
   * `followUp` after its current work. Resolves once the message reaches the model;
   * `no_active_run` when no run is active, `run_finished` when the run ends first.
   */
  async deliver(kind: 'steer' | 'followUp', text: string, options: DeliverOptions): Promise<void> {
    const run = this.#run;
    if (!run?.deliveries.open) {
      throw new RepaError('no_active_run', `Session ${this.sessionId} has no active run.`);
    }
    return run.deliveries.deliver(kind, text, options);
  }

  /**
   * Takes back a steer or follow-up message that has not reached the model yet: its
   * {@link deliver} rejects with `cancelled`. False when it was already delivered or is unknown.
   */
  async withdraw(requestRunId: string): Promise<boolean> {
    return (await this.#run?.deliveries.withdraw(requestRunId)) ?? false;
  }

  /**
   * Rewinds a finished run's saves (or an earlier rewind's): each file back to its version before
   * the run where it is still the run's last version, and on request the conversation back to
   * before the run; the model is told at its next request which files were rewound. `busy` while
   * a run is active.
   */
  async rewind(request: RewindRequest): Promise<RewindResult> {
    this.#refuseWhileBusy();
    this.#rewinding = true;
    try {
      return await rewindRun(
        {
          store: this.#store,
          observer: this.#observer,
          session: this.#session,
          sessionManager: this.#sessionManager,
        },
        request,
      );
    } finally {
      this.#rewinding = false;
    }
  }

  /**
   * Cancels the active run through Pi's `abort()`; saves already under way finish (spec R66), saves
   * and commands waiting for approval never happen. `interrupted` (the daemon stops): the run ends
   * `interrupted`, resumable (R37).
   */
  async cancel(options: { interrupted?: boolean } = {}): Promise<void> {
    const run = this.#run;
    if (!run) return;
    run.cancelRequested = true;
    if (options.interrupted) run.interrupted = true;
    await this.#session.abort();
  }

  /** True while a save or command of the active run waits for the learner (`tools.edits` `ask`). */
  get awaitingApproval(): boolean {
    return this.#run?.approvals.waiting ?? false;
  }

  /**
   * Answers the approval request `approvalId` of run `runId` (R37): false unless that run is the
   * active one and the request waits (answered already, or the run ended).
   */
  answerApproval(
    runId: string,
    approvalId: string,
    answer: ApprovalAnswer,
    reason?: string,
  ): boolean {
    const run = this.#run;
    if (run === undefined || run.runId !== runId) return false;
    return run.approvals.answer(approvalId, answer, reason);
  }

  /** Releases Pi's session and stops every command still running. */
  dispose(): void {
    this.#bash.dispose();
    this.#session.dispose();
  }
}
