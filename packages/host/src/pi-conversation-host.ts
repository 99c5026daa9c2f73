import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import { getCurrentTools, type Model, type ModelThinkingLevel } from '@earendil-works/pi-ai';
import {
  type AgentSession,
  type AgentSessionEvent,
  createAgentSessionFromServices,
  createAgentSessionServices,
  type ExtensionError,
  type ExtensionFactory,
  type InlineExtension,
  type ModelRuntime,
  type SessionManager,
  SettingsManager,
} from '@earendil-works/pi-coding-agent';
import { ContentObserver, ContentStore, createContentTools } from '@repa/content';
import {
  appendLearningContextSnapshot,
  buildFileChangeMessage,
  decideLearningContextSnapshot,
  filterCompactionPreparation,
  injectFileChangeMessage,
  type LearningContextView,
  readLearningContext,
  withModelContext,
} from '@repa/context';
import { type AssembledSystemPrompt, assembleSystemPrompt } from '@repa/prompt';
import {
  type ModelSettings,
  type PromptSettings,
  type PromptSettingsSources,
  RepaError,
  type RunEvent,
  type RunUsage,
  type SaveReceipt,
  type WireError,
} from '@repa/protocol';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';
import { connectionOf } from './credential-source.js';
import { findModel } from './find-model.js';
import { modelErrorOf } from './model-errors.js';
import { runEventsFromPi } from './run-events.js';
import { createSessionFile, openSessionFile } from './session-files.js';
import { sessionDirectoryOf } from './space-sessions.js';

/** Options of {@link PiConversationHost.open}. */
export interface PiConversationHostOptions {
  /** The space root (absolute). */
  space: string;
  /** An existing Pi session file to continue; omitted: a new session in `sessionDir`. */
  sessionFile?: string;
  /** Where new session files go; default `<space>/.repa/sessions`. */
  sessionDir?: string;
  /** Repa's application directory (outside-material grants). */
  appDirectory: string;
  /** Pi's own configuration directory (models, auth, Pi settings). */
  agentDir: string;
  /** Pi's model runtime: discovery, auth and every model call (spec R71). */
  modelRuntime: ModelRuntime;
  /** The model this session talks to. */
  model: Model<string>;
  /** Pi thinking level; default `off`. */
  thinkingLevel?: ModelThinkingLevel;
  /** Pi's own settings (compaction, retry); default: Pi's settings files for this space. */
  piSettings?: SettingsManager;
  /** Trusted inline Pi extensions; Repa's own extension is installed after them (spec R34). */
  extensions?: InlineExtension[];
  /** Whether the space's project instruction files are trusted (spec R13). Default false. */
  trustProjectInstructions?: boolean;
  /** Receives errors thrown by extension handlers (Pi isolates them; default: ignored). */
  onExtensionError?: (error: ExtensionError) => void;
  /** The date shown in the environment section; default: the clock at run start. */
  now?: () => Date;
  /**
   * Test hooks handed as-is to the session's content store (`ContentStore.open({ hooks })`):
   * `step` runs after each named save step and may pause it.
   * @internal
   */
  contentHooks?: {
    step?(step: string, info: { operationId: string; index?: number }): void | Promise<void>;
  };
  /**
   * Test seam: reads the space's learning context at run start instead of `readLearningContext`
   * (a test holds the read with it).
   * @internal
   */
  learningContextReader?: (space: string) => Promise<LearningContextView | null>;
}

/** Options of one {@link PiConversationHost.send}. */
export interface SendOptions {
  /** Receives the run's events as they happen. */
  onEvent?: (event: RunEvent) => void;
  /** The run's id; the run's saves get the operation ids `<runId>-<n>` (so recovery can name the run). */
  runId?: string;
  /** The level each of the run's settings came from; the prompt report names it (spec R10). */
  sources?: PromptSettingsSources;
  /** Whether the space's project instruction files are trusted for this run; default the host's. */
  trustProjectInstructions?: boolean;
  /**
   * The run's model, thinking level and tools, applied before the run starts (spec R72).
   * Omitted: the host's model, its initial thinking level and every content tool.
   */
  modelSettings?: ModelSettings;
}

/** How a run ended. */
export interface RunOutcome {
  /** Final status. */
  status: 'succeeded' | 'failed' | 'cancelled';
  /** The last assistant text. */
  output?: string;
  /** Why it failed or was cancelled. */
  error?: WireError;
  /** What the model was told, section by section (absent when the run never started). */
  prompt?: AssembledSystemPrompt;
  /** The provider's token usage and cost of the run's model calls (absent when none was made). */
  usage?: RunUsage;
  /** The model the run talked to (`provider/id`), once the run's settings were applied. */
  model?: string;
  /** The connection it used: provider and credential source, e.g. `anthropic:environment`. */
  connection?: string;
}

interface ActiveRun {
  settings: PromptSettings;
  trusted: boolean | undefined;
  sources: PromptSettingsSources | undefined;
  cancelRequested: boolean;
  view: LearningContextView | null;
  prompt: AssembledSystemPrompt | undefined;
  receipts: SaveReceipt[];
  emit: (event: RunEvent) => void;
  runId: string | undefined;
  /** Saving tool calls so far (numbers the operation ids). */
  saves: number;
  /** The provider's usage summed over the run's model calls. */
  usage: RunUsage;
  /** Pi's automatic retries of the run's model calls so far, and the last delay. */
  retries?: { attempts: number; lastDelayMs: number };
}

const REPA_EXTENSION_NAME = 'repa';

/**
 * One Repa session on the real Pi SDK: Pi runs the model, history, tool loop, retries and
 * compaction; this host decides what the model is shown and saves files through the content store.
 */
export class PiConversationHost {
  readonly #options: PiConversationHostOptions;
  readonly #store: ContentStore;
  readonly #observer: ContentObserver;
  #session!: AgentSession;
  #sessionManager!: SessionManager;
  #run: ActiveRun | undefined;
  /** The settings of the last run; used for turns Pi starts without a run (idle custom messages). */
  #lastSettings: PromptSettings | undefined;
  #lastPrompt: AssembledSystemPrompt | undefined;
  /** The skill files the last assembled prompt's catalog offers (readable with `read`, R54). */
  #offeredSkills: readonly string[] = [];
  /** Every content and search tool this host registered (the default of `tools.enabled`). */
  #toolNames: readonly string[] = [];

  private constructor(options: PiConversationHostOptions, store: ContentStore) {
    this.#options = options;
    this.#store = store;
    this.#observer = new ContentObserver(store);
  }

  /** Opens (or creates) a session of a space and builds its Pi `AgentSession`. */
  static async open(options: PiConversationHostOptions): Promise<PiConversationHost> {
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

  /** True while a run is active. */
  get busy(): boolean {
    return this.#run !== undefined;
  }

  async #build(): Promise<void> {
    const { space, agentDir, modelRuntime, model } = this.#options;
    const file =
      this.#options.sessionFile ??
      (await createSessionFile(space, this.#options.sessionDir ?? sessionDirectoryOf(space)));
    const original = await openSessionFile(file, space);
    this.#sessionManager = original;
    // Spec R43–R45: Pi decides compaction and builds every request from this projection.
    // Pi's estimates count the system message of the prompt Repa actually sends, not Pi's own.
    const sessionManager = withModelContext(original, () => ({
      learningContext: (this.#run?.settings ?? this.#lastSettings)?.learningContext ?? true,
      systemPrompt: (this.#run?.prompt ?? this.#lastPrompt)?.text,
    }));
    const settingsManager = this.#options.piSettings ?? SettingsManager.create(space, agentDir);
    // Spec R26: services + fromServices keep Repa's prompt ownership, trust and content tools.
    const services = await createAgentSessionServices({
      cwd: space,
      agentDir,
      settingsManager,
      modelRuntime,
      resourceLoaderOptions: {
        // Extension code runs only when the embedding application hands it over as trusted
        // (`extensions`); files found on disk are not loaded. Skills and instruction files are
        // read as data and shown according to the run's settings and trust (spec R13, R35).
        noExtensions: true,
        noPromptTemplates: true,
        noThemes: true,
        extensionFactories: [
          ...(this.#options.extensions ?? []),
          { name: REPA_EXTENSION_NAME, factory: this.#extension() },
        ],
      },
    });
    const tools = createContentTools({
      store: this.#store,
      observer: this.#observer,
      skillFiles: () => this.#offeredSkills,
      newOperationId: () => {
        const run = this.#run;
        return run?.runId === undefined ? randomUUID() : `${run.runId}-${++run.saves}`;
      },
    });
    this.#toolNames = tools.map((tool) => tool.name);
    const { session } = await createAgentSessionFromServices({
      services,
      sessionManager,
      model,
      thinkingLevel: this.#options.thinkingLevel ?? 'off',
      customTools: tools,
      tools: tools.map((tool) => tool.name),
    });
    await session.bindExtensions({
      onError: (error) => this.#options.onExtensionError?.(error),
    });
    this.#session = session;
  }

  /** Repa's inline extension, installed last (spec R34). */
  #extension(): ExtensionFactory {
    return (pi) => {
      pi.on('before_agent_start', (event) => {
        // Another extension's `systemPrompt` would replace every system message after
        // `context_with_system`; as the last handler, Repa's own prompt wins (spec R34, and
        // "Where Pi 0.87.1 differs" in docs/design.md).
        const prompt = this.#assemblePrompt(this.#run?.settings);
        event.systemPromptOptions.forceSystemPrompt = prompt.text;
        return undefined;
      });
      pi.on('context', async (event) => {
        const settings = this.#run?.settings ?? this.#lastSettings;
        if (!settings || settings.fileChanges === 'off') return undefined;
        const report = await this.#observer.checkChanges(settings.fileChanges);
        const message = buildFileChangeMessage(report, settings.fileChanges, {
          receipts: this.#run?.receipts ?? [],
        });
        if (!message) return undefined;
        injectFileChangeMessage(this.#sessionManager, event.messages, message);
        this.#run?.emit({ type: 'file-change-notice', changes: message.details.changes });
        return { messages: event.messages };
      });
      pi.on('context_with_system', (event) => {
        const prompt = this.#run?.prompt ?? this.#lastPrompt ?? this.#assemblePrompt(undefined);
        const head = {
          role: 'system' as const,
          content: '',
          sections: prompt.sections,
          toolsAdded: getCurrentTools(event.messages),
          timestamp: Date.now(),
        };
        return {
          messages: [head, ...event.messages.filter((message) => message.role !== 'system')],
        };
      });
      pi.on('session_before_compact', (event) => {
        const settings = this.#run?.settings ?? this.#lastSettings;
        if (settings) filterCompactionPreparation(event.preparation, settings);
        return undefined;
      });
    };
  }

  #assemblePrompt(settings: PromptSettings | undefined): AssembledSystemPrompt {
    if (this.#run?.prompt) return this.#run.prompt;
    // A turn Pi starts before any run (an extension's idle custom message) gets the defaults.
    const resolved = settings ?? this.#lastSettings ?? DEFAULT_PROMPT_SETTINGS;
    const active = new Set(this.#session.getActiveToolNames());
    const loader = this.#session.resourceLoader;
    const skills = loader.getSkills().skills.map((skill) => ({
      name: skill.name,
      description: skill.description,
      location: skill.filePath,
    }));
    const prompt = assembleSystemPrompt({
      settings: resolved,
      ...(this.#run?.sources ? { sources: this.#run.sources } : {}),
      environment: {
        spaceRoot: this.#options.space,
        spaceName: basename(this.#options.space),
        platform: process.platform,
        date: (this.#options.now?.() ?? new Date()).toISOString().slice(0, 10),
      },
      skills,
      projectInstructions: {
        trusted: this.#run?.trusted ?? this.#options.trustProjectInstructions ?? false,
        files: loader
          .getAgentsFiles()
          .agentsFiles.map((file) => ({ path: file.path, text: file.content })),
      },
      tools: this.#session
        .getAllTools()
        .filter((tool) => active.has(tool.name))
        .map((tool) => ({
          name: tool.name,
          description: tool.description,
          ...(tool.promptGuidelines ? { promptGuidelines: [...tool.promptGuidelines] } : {}),
        })),
    });
    if (this.#run) this.#run.prompt = prompt;
    this.#lastPrompt = prompt;
    // Contract: only the skills the model is shown become readable, at the location shown.
    this.#offeredSkills =
      prompt.sections.skillCatalog === undefined ? [] : skills.map((skill) => skill.location);
    return prompt;
  }

  /**
   * Runs one user request with the settings decided at acceptance (spec R23). Reads the space's
   * learning context first: a failure ends the run before the message enters Pi history (R31).
   */
  async send(
    text: string,
    settings: PromptSettings,
    options: SendOptions = {},
  ): Promise<RunOutcome> {
    if (this.#run) {
      throw new RepaError('busy', `Session ${this.sessionId} has an active run.`);
    }
    const emit = options.onEvent ?? (() => {});
    // The run exists (busy, cancellable) from here on: a cancel while the context is read counts.
    const run: ActiveRun = {
      settings,
      trusted: options.trustProjectInstructions,
      sources: options.sources,
      cancelRequested: false,
      view: null,
      prompt: undefined,
      receipts: [],
      emit,
      runId: options.runId,
      saves: 0,
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, calls: 0 },
    };
    this.#run = run;
    let unsubscribe = () => {};
    try {
      if (settings.learningContext) {
        try {
          run.view = await (this.#options.learningContextReader ?? readLearningContext)(
            this.#options.space,
          );
        } catch (error) {
          return { status: 'failed', error: RepaError.fromUnknown(error).toWire() };
        }
      }
      if (run.cancelRequested) return this.#cancelled(undefined);
      // Spec R72: the model settings change only here, between runs.
      if (options.modelSettings) await this.#applyModelSettings(options.modelSettings);
      this.#lastSettings = settings;
      unsubscribe = this.#session.subscribe((event: AgentSessionEvent) => {
        // A cancel that arrived before Pi's loop started streaming had nothing to abort yet.
        if (event.type === 'agent_start' && run.cancelRequested) void this.#session.abort();
        if (event.type === 'message_end' && event.message.role === 'assistant') {
          addUsage(run.usage, event.message.usage);
        }
        for (const runEvent of runEventsFromPi(event)) {
          if (runEvent.type === 'tool-end' && runEvent.receipts)
            run.receipts.push(...runEvent.receipts);
          if (runEvent.type === 'retry') {
            run.retries = { attempts: runEvent.attempt, lastDelayMs: runEvent.delayMs };
          }
          emit(runEvent);
        }
      });
      const prompt = this.#assemblePrompt(settings);
      emit({ type: 'prompt-sections', sections: prompt.report });
      const { view } = run;
      const decision = decideLearningContextSnapshot(this.#sessionManager, view, settings);
      if (decision.append && view) {
        appendLearningContextSnapshot(this.#sessionManager, view);
        emit({
          type: 'context-snapshot',
          revision: view.revision,
          chars: view.body.length,
          sources: view.sources,
        });
      }
      // Files changed since the last request are told before the new user message (R50).
      await this.#appendFileChangeNotice(run);
      if (run.cancelRequested) return this.#cancelled(prompt);
      await this.#session.prompt(text);
      return this.#withUsage(this.#outcome(prompt, run), run);
    } catch (error) {
      if (run.cancelRequested) return this.#withUsage(this.#cancelled(run.prompt), run);
      return this.#withUsage(
        { status: 'failed', error: RepaError.fromUnknown(error).toWire(), prompt: run.prompt },
        run,
      );
    } finally {
      unsubscribe();
      this.#run = undefined;
    }
  }

  /** Persists a notice of the files this host read that changed on disk, if any (R50–R53). */
  async #appendFileChangeNotice(run: ActiveRun): Promise<void> {
    const mode = run.settings.fileChanges;
    if (mode === 'off') return;
    const message = buildFileChangeMessage(await this.#observer.checkChanges(mode), mode, {
      receipts: run.receipts,
    });
    if (!message) return;
    this.#sessionManager.appendCustomMessageEntry(
      message.customType,
      message.content,
      message.display,
      message.details,
    );
    run.emit({ type: 'file-change-notice', changes: message.details.changes });
  }

  #cancelled(prompt: AssembledSystemPrompt | undefined, output?: string): RunOutcome {
    return {
      status: 'cancelled',
      error: new RepaError('cancelled', 'The run was cancelled.').toWire(),
      ...(prompt ? { prompt } : {}),
      ...(output ? { output } : {}),
    };
  }

  /** Sets the session's model, thinking level and active tools for the next run. */
  async #applyModelSettings(settings: ModelSettings): Promise<void> {
    const { modelRuntime } = this.#options;
    const model = settings.model ? findModel(modelRuntime, settings.model) : this.#options.model;
    const current = this.#session.model;
    if (!current || current.provider !== model.provider || current.id !== model.id) {
      if (!(await modelRuntime.checkAuth(model.provider))) {
        throw new RepaError(
          'auth_failed',
          `Model ${model.provider}/${model.id} has no credentials in Pi's configuration.`,
          {
            fix: `Add a key for ${model.provider} (environment variable or Pi's auth.json) or log in with pi; see \`repa models\`.`,
            details: { provider: model.provider, model: model.id },
          },
        );
      }
      await this.#session.setModel(model);
    }
    const level =
      settings.thinkingLevel ??
      this.#session.settingsManager.getDefaultThinkingLevel() ??
      this.#options.thinkingLevel ??
      'off';
    this.#session.setThinkingLevel(level);
    const tools = settings.tools ?? this.#toolNames;
    const unknown = tools.filter((name) => !this.#toolNames.includes(name));
    if (unknown.length > 0) {
      throw new RepaError(
        'invalid_request',
        `Unknown tool ${unknown.join(', ')} in tools.enabled.`,
        {
          fix: `Use tool names Repa offers: ${this.#toolNames.join(', ')}.`,
          details: { field: 'tools.enabled', unknown },
        },
      );
    }
    this.#session.setActiveToolsByName([...tools]);
  }

  /** The outcome with the run's usage, when a model call was made (R47: Pi's window estimate). */
  #withUsage(outcome: RunOutcome, run: ActiveRun): RunOutcome {
    const model = this.#session.model;
    if (model) {
      const connection = connectionOf(this.#options.modelRuntime, model.provider);
      outcome = {
        ...outcome,
        model: `${model.provider}/${model.id}`,
        ...(connection ? { connection } : {}),
      };
    }
    if (run.usage.calls === 0) return outcome;
    const context = this.#session.getContextUsage();
    const usage: RunUsage = {
      ...run.usage,
      ...(context?.tokens == null ? {} : { contextTokensEstimate: context.tokens }),
      ...(context ? { contextWindow: context.contextWindow } : {}),
    };
    return { ...outcome, usage };
  }

  #outcome(prompt: AssembledSystemPrompt, run: ActiveRun): RunOutcome {
    const last = [...this.#session.messages]
      .reverse()
      .find((message) => message.role === 'assistant');
    const output = this.#session.getLastAssistantText();
    // A cancel that arrives between tool rounds ends Pi's loop without an aborted reply.
    if (run.cancelRequested || (last && 'stopReason' in last && last.stopReason === 'aborted')) {
      return this.#cancelled(prompt, output);
    }
    if (last && 'stopReason' in last && last.stopReason === 'error') {
      const message = ('errorMessage' in last && last.errorMessage) || 'The model request failed.';
      const model = (this.#session.model ?? this.#options.model) as Model<string>;
      const connection = connectionOf(this.#options.modelRuntime, model.provider);
      return {
        status: 'failed',
        error: modelErrorOf(message, model, connection, run.retries).toWire(),
        prompt,
      };
    }
    return { status: 'succeeded', prompt, ...(output ? { output } : {}) };
  }

  /** Cancels the active run through Pi's `abort()`; saves already under way finish (spec R66). */
  async cancel(): Promise<void> {
    if (!this.#run) return;
    this.#run.cancelRequested = true;
    await this.#session.abort();
  }

  /** Releases Pi's session. */
  dispose(): void {
    this.#session.dispose();
  }
}

/** Adds one Pi assistant message's provider usage to the run's sum. */
function addUsage(
  sum: RunUsage,
  usage:
    | {
        input: number;
        output: number;
        cacheRead: number;
        cacheWrite: number;
        totalTokens: number;
        cost?: { total: number };
      }
    | undefined,
): void {
  sum.calls += 1;
  if (!usage) return;
  sum.input += usage.input;
  sum.output += usage.output;
  sum.cacheRead += usage.cacheRead;
  sum.cacheWrite += usage.cacheWrite;
  sum.totalTokens += usage.totalTokens;
  // Pi reports 0 when it knows no price for the model: no cost is claimed then.
  if (usage.cost && usage.cost.total > 0) sum.cost = (sum.cost ?? 0) + usage.cost.total;
}
