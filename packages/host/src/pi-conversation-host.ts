import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import {
  getCurrentTools,
  type ImageContent,
  type Model,
  type ModelThinkingLevel,
} from '@earendil-works/pi-ai';
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
  type AttachedSource,
  type ModelSettings,
  type PromptSettings,
  type PromptSettingsSources,
  RepaError,
  type RestrictedItem,
  type RunAttachment,
  type RunEvent,
  type RunImage,
  type RunUsage,
  type SaveReceipt,
  type WireError,
} from '@repa/protocol';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';
import { DEFAULT_BASH_TIMEOUT_SECONDS, HostBashTool } from './bash-tool.js';
import { connectionOf } from './credential-source.js';
import { findModel } from './find-model.js';
import { modelErrorOf } from './model-errors.js';
import { runEventsFromPi } from './run-events.js';
import { readAttachments, resolveRunImages } from './run-inputs.js';
import { createSessionFile, openSessionFile } from './session-files.js';
import { sessionDirectoryOf } from './space-sessions.js';
import {
  checkTrustedPiFiles,
  learningContextDigest,
  withheldInstructionFiles,
  withSkillsWithinSpace,
} from './space-trust.js';

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
  /**
   * Whether the learner trusts the space (spec R13). Untrusted (the default), nothing of the
   * space's own Pi configuration is read or run: its `.pi/` settings, skills, prompt templates and
   * packages, `.agents/` skills and instruction files; Pi's project trust follows this.
   */
  trusted?: boolean;
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
   * Test hooks for the sandboxed `bash` tool: the process limit of one command (default 256) and
   * the grace period between SIGTERM and SIGKILL (default 2000 ms).
   * @internal
   */
  bashLimits?: { maxProcesses?: number; graceMillis?: number };
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
  /**
   * In an untrusted space, the digests ({@link learningContextDigest}) of the learning contexts
   * Repa wrote there: any other learning context the space holds is not given to the model.
   */
  knownContexts?: readonly string[];
  /** What the space's restriction leaves out, as the application found it; told with the prompt. */
  restricted?: readonly RestrictedItem[];
  /**
   * The run's model, thinking level and tools, applied before the run starts (spec R72).
   * Omitted: the host's model, its initial thinking level and every content tool.
   */
  modelSettings?: ModelSettings;
  /** Images sent with the request: given to the model as image content parts. */
  images?: readonly RunImage[];
  /** Documents of the space attached to the request: read at run start and sent with it. */
  attachments?: readonly RunAttachment[];
}

/** Options of one {@link PiConversationHost.deliver}. */
export interface DeliverOptions {
  /** Images sent with the message. */
  images?: readonly RunImage[];
  /** The request's own ledger record, named in the `steer-delivered` / `follow-up-delivered` event. */
  requestRunId: string;
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
  /** The attached documents as the run read them. */
  attachedSources?: AttachedSource[];
  /** What the space's restriction left out of the run (absent when the space is trusted). */
  restricted?: RestrictedItem[];
}

interface PendingDelivery {
  kind: 'steer' | 'followUp';
  text: string;
  images: ImageContent[] | undefined;
  /** Handed to Pi's queue (images are read first). */
  queued: boolean;
  requestRunId: string;
  delivered: () => void;
  failed: (error: RepaError) => void;
}

interface ActiveRun {
  settings: PromptSettings;
  restricted: RestrictedItem[];
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
  /** Steer and follow-up messages handed to Pi and not yet seen reaching the model. */
  pending: PendingDelivery[];
  /** False once the run has ended: no more deliveries are taken. */
  open: boolean;
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
  /**
   * The last assembled prompt, reused while its input stays the same: the run's own input (as
   * JSON) and the objects the rest comes from (Pi's skill and instruction lists, the active tool
   * definitions), which Pi replaces rather than changes.
   */
  #assembled:
    | { key: string; sources: readonly unknown[]; prompt: AssembledSystemPrompt }
    | undefined;
  /** The skill files the last assembled prompt's catalog offers (readable with `read`, R54). */
  #offeredSkills: readonly string[] = [];
  /** An untrusted space's instruction files, unread: the prompt report names them as withheld. */
  #withheldInstructions: readonly string[] = [];
  /** Every content and search tool this host registered (the default of `tools.enabled`). */
  #toolNames: readonly string[] = [];
  /** The sandboxed `bash` tool: registered, active only in runs whose `tools.bash` allows it. */
  readonly #bash = new HostBashTool();

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
    const trusted = this.#options.trusted ?? false;
    // Spec R13: Pi reads a space's own files synchronously; a trusted space's must be safe to read.
    if (trusted) await checkTrustedPiFiles(space);
    else this.#withheldInstructions = await withheldInstructionFiles(space);
    const settingsManager =
      this.#options.piSettings ??
      SettingsManager.create(space, agentDir, { projectTrusted: trusted });
    // An embedder's own settings manager follows Repa's trust too: Pi's project trust is Repa's.
    settingsManager.setProjectTrusted(trusted);
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
        // An untrusted space's instruction files are not even read (a FIFO would stall Pi).
        noContextFiles: !trusted,
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
    const bash = this.#bash.tool({
      store: this.#store,
      observer: this.#observer,
      hidden: [this.#options.appDirectory, agentDir],
      ...this.#options.bashLimits,
      onChanges: (changes) => this.#run?.emit({ type: 'file-change-notice', changes }),
    });
    const { session } = await createAgentSessionFromServices({
      services: {
        ...services,
        resourceLoader: withSkillsWithinSpace(services.resourceLoader, space),
      },
      sessionManager,
      model,
      thinkingLevel: this.#options.thinkingLevel ?? 'off',
      customTools: [...tools, bash],
      tools: [...this.#toolNames, bash.name],
    });
    session.setActiveToolsByName([...this.#toolNames]);
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
    const loader = this.#session.resourceLoader;
    const skillList = loader.getSkills().skills;
    const agentsFiles = loader.getAgentsFiles().agentsFiles;
    const active = new Set(this.#session.getActiveToolNames());
    const tools = this.#session.getAllTools().filter((tool) => active.has(tool.name));
    const skills = skillList.map((skill) => ({
      name: skill.name,
      description: skill.description,
      location: skill.filePath,
    }));
    const trusted = this.#options.trusted ?? false;
    const date = (this.#options.now?.() ?? new Date()).toISOString().slice(0, 10);
    // The prompt is a pure function of its input: a run whose input equals the last one's (the
    // usual case: same settings, files, tools and day) reuses it instead of assembling it again.
    const key = JSON.stringify({ settings: resolved, sources: this.#run?.sources, trusted, date });
    const sources = [
      skillList,
      agentsFiles,
      ...tools.map((tool) => this.#session.getToolDefinition(tool.name)),
    ];
    const reuse =
      this.#assembled?.key === key &&
      this.#assembled.sources.length === sources.length &&
      this.#assembled.sources.every((source, index) => source === sources[index]);
    const prompt =
      reuse && this.#assembled
        ? this.#assembled.prompt
        : assembleSystemPrompt({
            settings: resolved,
            ...(this.#run?.sources ? { sources: this.#run.sources } : {}),
            environment: {
              spaceRoot: this.#options.space,
              spaceName: basename(this.#options.space),
              platform: process.platform,
              date,
            },
            skills,
            projectInstructions: {
              trusted,
              files: trusted
                ? agentsFiles.map((file) => ({ path: file.path, text: file.content }))
                : this.#withheldInstructions.map((path) => ({ path, text: '' })),
            },
            tools: tools.map((tool) => ({
              name: tool.name,
              description: tool.description,
              ...(tool.promptGuidelines ? { promptGuidelines: [...tool.promptGuidelines] } : {}),
            })),
          });
    this.#assembled = { key, sources, prompt };
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
  send(text: string, settings: PromptSettings, options: SendOptions = {}): Promise<RunOutcome> {
    return this.#perform(text, settings, options);
  }

  /**
   * Continues the session from where its history ends, without a new user message: after an
   * interrupted run (history ends with the request or tool results) or a failed one (Pi's failed
   * reply is left out of the model's view, as Pi's own retry does). `invalid_request` when the
   * history ends with a complete reply.
   */
  resume(settings: PromptSettings, options: SendOptions = {}): Promise<RunOutcome> {
    return this.#perform(undefined, settings, options);
  }

  async #perform(
    text: string | undefined,
    settings: PromptSettings,
    options: SendOptions,
  ): Promise<RunOutcome> {
    if (this.#run) {
      throw new RepaError('busy', `Session ${this.sessionId} has an active run.`);
    }
    const emit = options.onEvent ?? (() => {});
    // The run exists (busy, cancellable) from here on: a cancel while the context is read counts.
    const run: ActiveRun = {
      settings,
      restricted: [...(options.restricted ?? [])],
      sources: options.sources,
      cancelRequested: false,
      view: null,
      prompt: undefined,
      receipts: [],
      emit,
      runId: options.runId,
      saves: 0,
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, calls: 0 },
      pending: [],
      open: true,
    };
    this.#run = run;
    let unsubscribe = () => {};
    try {
      if (settings.learningContext) {
        try {
          run.view = await (this.#options.learningContextReader ?? readLearningContext)(
            this.#options.space,
          );
          // Spec R13: an untrusted space's learning context counts only when Repa wrote it there.
          if (
            run.view &&
            !(this.#options.trusted ?? false) &&
            !options.knownContexts?.includes(learningContextDigest(run.view.body))
          ) {
            run.view = null;
            if (!run.restricted.some((item) => item.kind === 'learning-context')) {
              run.restricted.push(shippedContext());
            }
          }
        } catch (error) {
          return { status: 'failed', error: RepaError.fromUnknown(error).toWire() };
        }
      }
      if (run.cancelRequested) return this.#cancelled(undefined);
      // Images and attached documents are read now, before the message enters Pi history.
      let images: Awaited<ReturnType<typeof resolveRunImages>> = [];
      let attached: Awaited<ReturnType<typeof readAttachments>> | undefined;
      try {
        images = await resolveRunImages(this.#store, options.images ?? []);
        if (options.attachments?.length) {
          attached = await readAttachments(this.#store, this.#observer, options.attachments);
        }
      } catch (error) {
        return { status: 'failed', error: RepaError.fromUnknown(error).toWire() };
      }
      // Spec R72: the model settings change only here, between runs.
      if (options.modelSettings) await this.#applyModelSettings(options.modelSettings);
      if (text === undefined) this.#prepareResume();
      this.#lastSettings = settings;
      unsubscribe = this.#session.subscribe((event: AgentSessionEvent) => {
        // A cancel that arrived before Pi's loop started streaming had nothing to abort yet.
        if (event.type === 'agent_start' && run.cancelRequested) void this.#session.abort();
        if (event.type === 'message_end' && event.message.role === 'assistant') {
          addUsage(run.usage, event.message.usage);
        }
        if (event.type === 'message_start' && event.message.role === 'user') {
          this.#markDelivered(run, textOf(event.message.content));
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
      emit({
        type: 'prompt-sections',
        sections: prompt.report,
        ...(run.restricted.length > 0 ? { restricted: run.restricted } : {}),
      });
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
      if (attached) {
        emit({ type: 'sources-attached', sources: attached.sources });
      }
      if (text === undefined) {
        // Pi's AgentSession has no public continue; its Agent's continue() runs the same loop
        // (events, persistence, the request projection) from the current history.
        await this.#session.agent.continue();
      } else {
        const message = attached ? `${text}\n\n${attached.text}` : text;
        await this.#session.prompt(message, images.length > 0 ? { images } : undefined);
      }
      const outcome = this.#withUsage(this.#outcome(prompt, run), run);
      return {
        ...outcome,
        ...(attached ? { attachedSources: attached.sources } : {}),
        ...(run.restricted.length > 0 ? { restricted: run.restricted } : {}),
      };
    } catch (error) {
      if (run.cancelRequested) return this.#withUsage(this.#cancelled(run.prompt), run);
      return this.#withUsage(
        { status: 'failed', error: RepaError.fromUnknown(error).toWire(), prompt: run.prompt },
        run,
      );
    } finally {
      run.open = false;
      unsubscribe();
      this.#run = undefined;
      if (run.pending.length > 0) {
        // Pi would hand what is left to the next prompt: take it back and say so (nothing is lost).
        this.#session.clearQueue();
        for (const pending of run.pending.splice(0)) {
          pending.failed(
            new RepaError(
              'run_finished',
              `The run ended before the ${pending.kind === 'steer' ? 'steering' : 'follow-up'} message was delivered.`,
            ),
          );
        }
      }
    }
  }

  /**
   * Delivers a message into the active run through Pi: `steer` at its next turn boundary,
   * `followUp` after its current work. Resolves once the message reaches the model;
   * `no_active_run` when no run is active, `run_finished` when the run ends first.
   */
  async deliver(kind: 'steer' | 'followUp', text: string, options: DeliverOptions): Promise<void> {
    const run = this.#run;
    if (!run?.open) {
      throw new RepaError('no_active_run', `Session ${this.sessionId} has no active run.`);
    }
    let pending!: PendingDelivery;
    const delivered = new Promise<void>((resolve, reject) => {
      pending = {
        kind,
        text,
        images: undefined,
        queued: false,
        requestRunId: options.requestRunId,
        delivered: resolve,
        failed: reject,
      };
    });
    delivered.catch(() => {}); // The caller gets the rejection through the returned promise.
    run.pending.push(pending); // Known, and can be withdrawn, from here on.
    try {
      const images = await resolveRunImages(this.#store, options.images ?? []);
      if (images.length > 0) pending.images = images;
    } catch (error) {
      run.pending = run.pending.filter((other) => other !== pending);
      throw error;
    }
    // Not withdrawn meanwhile, and the run has not ended (which fails what is pending).
    if (run.pending.includes(pending)) {
      pending.queued = true;
      await this.#queue(kind, text, pending.images);
    }
    return delivered;
  }

  /**
   * Takes back a steer or follow-up message that has not reached the model yet: its
   * {@link deliver} rejects with `cancelled`. False when it was already delivered or is unknown.
   */
  async withdraw(requestRunId: string): Promise<boolean> {
    const run = this.#run;
    const index = run?.pending.findIndex((pending) => pending.requestRunId === requestRunId) ?? -1;
    if (!run || index === -1) return false;
    const [withdrawn] = run.pending.splice(index, 1);
    // Pi clears only its whole queue: the other messages are queued again, in their order.
    this.#session.clearQueue();
    for (const other of run.pending) {
      if (other.queued) await this.#queue(other.kind, other.text, other.images);
    }
    withdrawn?.failed(
      new RepaError('cancelled', 'The message was cancelled before it was delivered.'),
    );
    return true;
  }

  #queue(kind: 'steer' | 'followUp', text: string, images: ImageContent[] | undefined) {
    return kind === 'steer'
      ? this.#session.steer(text, images)
      : this.#session.followUp(text, images);
  }

  /** A user message reached the model: the first pending delivery with its text is delivered. */
  #markDelivered(run: ActiveRun, text: string): void {
    const index = run.pending.findIndex((pending) => pending.text === text);
    if (index === -1) return;
    const [pending] = run.pending.splice(index, 1);
    if (!pending) return;
    run.emit({
      type: pending.kind === 'steer' ? 'steer-delivered' : 'follow-up-delivered',
      text: pending.text,
      requestRunId: pending.requestRunId,
    });
    pending.delivered();
  }

  /**
   * Makes the history continuable: a failed or aborted last reply is left out of the model's view
   * with a context edit (kept in the raw session, like Pi's own retry does).
   */
  #prepareResume(): void {
    const projection = this.#sessionManager.buildSessionProjection();
    const last = projection.messages.at(-1);
    if (!last) {
      throw new RepaError('invalid_request', 'The session has no history to resume.', {
        fix: 'Submit a new request instead.',
      });
    }
    if (last.role !== 'assistant') return;
    const stopReason = 'stopReason' in last ? last.stopReason : undefined;
    const entry = projection.entries.findLast((item) => item.messages.includes(last));
    if ((stopReason !== 'error' && stopReason !== 'aborted') || !entry) {
      throw new RepaError(
        'invalid_request',
        "The session's history ends with a complete reply; there is nothing to resume.",
        { fix: 'Submit a new request instead.' },
      );
    }
    this.#sessionManager.appendContextEdit(entry.sourceEntry.id, null);
    this.#session.refreshContext();
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
    const bashAllowed = settings.bash === 'sandboxed';
    const offered = [...this.#toolNames, ...(bashAllowed ? ['bash'] : [])];
    const tools = settings.tools ?? offered;
    const unknown = tools.filter((name) => !offered.includes(name));
    if (unknown.length > 0) {
      throw new RepaError(
        'invalid_request',
        `Unknown tool ${unknown.join(', ')} in tools.enabled.`,
        {
          fix: unknown.includes('bash')
            ? 'Allow commands with `repa settings set tools.bash sandboxed`, or remove bash from tools.enabled.'
            : `Use tool names Repa offers: ${offered.join(', ')}.`,
          details: { field: 'tools.enabled', unknown },
        },
      );
    }
    // Never a silent fall-back: without a working sandbox the run fails before the model is asked.
    if (tools.includes('bash')) await this.#bash.check();
    this.#bash.timeoutSeconds = settings.bashTimeoutSeconds ?? DEFAULT_BASH_TIMEOUT_SECONDS;
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

  /** Releases Pi's session and stops every command still running. */
  dispose(): void {
    this.#bash.dispose();
    this.#session.dispose();
  }
}

/** The restriction item of a learning context Repa did not write in an untrusted space. */
function shippedContext(): RestrictedItem {
  return {
    kind: 'learning-context',
    path: '.repa/learning-context.json',
    detail: 'A learning context Repa did not write here; not given to the model.',
  };
}

/** The text parts of a Pi user message, joined. */
function textOf(content: string | readonly { type: string; text?: string }[]): string {
  if (typeof content === 'string') return content;
  return content
    .filter((part) => part.type === 'text')
    .map((part) => part.text ?? '')
    .join('');
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
