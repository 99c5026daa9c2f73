import { getCurrentTools } from '@earendil-works/pi-ai';
import {
  type AgentSession,
  createAgentSessionFromServices,
  createAgentSessionServices,
  type ExtensionFactory,
  type SessionManager,
  SettingsManager,
} from '@earendil-works/pi-coding-agent';
import { type ContentObserver, type ContentStore, recordCommandChanges } from '@repa/content';
import { createContentTools, type ToolApprovals } from '@repa/content/tools';
import {
  buildFileChangeMessage,
  filterCompactionPreparation,
  injectFileChangeMessage,
  withModelContext,
} from '@repa/context';
import type { AssembledSystemPrompt } from '@repa/prompt';
import {
  type PackageResource,
  type PromptSettings,
  REPA_TOOL_NAMES,
  type ResourceDiagnostic,
  type RunEvent,
  type SaveReceipt,
} from '@repa/protocol';
import type { HostBashTool } from '../bash-settings.js';
import {
  extensionTools,
  packageResources,
  resourceDiagnostics,
  withoutRefusedExtensions,
} from '../packages/index.js';
import { createSessionFile, openSessionFile, sessionDirectoryOf } from '../sessions/index.js';
import {
  checkTrustedPiFiles,
  withheldInstructionFiles,
  withSkillsWithinSpace,
} from '../trust/index.js';
import type { CompactionWatch } from './compact-session.js';
import type { PiConversationHostOptions } from './host-options.js';

/**
 * What the session reads from its host while Pi runs: the active run, else what the last run
 * left (settings, prompt), so that turns Pi starts without a run keep Repa's view.
 */
export interface SessionHooks {
  /** The settings of the active run, else of the last run; none before the first. */
  settings(): PromptSettings | undefined;
  /** The prompt of the active run, else the one assembled last; none before the first. */
  prompt(): AssembledSystemPrompt | undefined;
  /**
   * The prompt of a turn about to start: the active run's, else assembled from `settings` (when
   * omitted, the last run's, else the defaults).
   */
  assemblePrompt(settings: PromptSettings | undefined): AssembledSystemPrompt;
  /** The receipts of the active run's saves; none without a run. */
  receipts(): readonly SaveReceipt[];
  /** Tells the active run an event; nothing without a run. */
  emit(event: RunEvent): void;
  /** The operation id of the next save (`<runId>-<n>` in a named run, so recovery can name it). */
  operationId(): string;
  /** The skill files the last prompt's catalog offers (readable with `read`, R54). */
  offeredSkills(): readonly string[];
  /** Told what each compaction is about to summarise, after the filter (R46). */
  compactions: CompactionWatch;
  /** The active run's approvals (`tools.edits`); none without a run (saves go ahead). */
  approvals(): ToolApprovals | undefined;
  /** The active run's `documents.ocrLanguages`; none without a run (the default). */
  ocrLanguages(): readonly string[] | undefined;
}

/** Pi's session of a host, as {@link assembleSession} built it. */
export interface AssembledSession {
  /** Pi's `AgentSession`. */
  session: AgentSession;
  /** The session's own manager (the file), not the projection Pi reads. */
  sessionManager: SessionManager;
  /** Every content and search tool registered (the default of `tools.enabled`). */
  toolNames: readonly string[];
  /** The tools of loaded extensions: offered to `tools.enabled`, off unless it names them. */
  extensionToolNames: readonly string[];
  /** What Pi packages and the learner's own Pi folders brought (the prompt report names them). */
  packageResources: readonly PackageResource[];
  /** Pi's resource-loading diagnostics, refused extensions included. */
  diagnostics: readonly ResourceDiagnostic[];
  /** An untrusted space's instruction files, unread: the prompt report names them as withheld. */
  withheldInstructions: readonly string[];
}

const REPA_EXTENSION_NAME = 'repa';

/**
 * Opens (or creates) a session file of a space and builds its Pi `AgentSession` (spec R26, R34,
 * R71): Pi's services with Repa's trust, Repa's content tools and sandboxed `bash`, and Repa's
 * extension installed last.
 */
export async function assembleSession(
  options: PiConversationHostOptions,
  parts: { store: ContentStore; observer: ContentObserver; bash: HostBashTool },
  hooks: SessionHooks,
): Promise<AssembledSession> {
  const { space, agentDir, modelRuntime, model } = options;
  const { store, observer } = parts;
  const file =
    options.sessionFile ??
    (await createSessionFile(space, options.sessionDir ?? sessionDirectoryOf(space)));
  const original = await openSessionFile(file, space);
  // Spec R43–R45: Pi decides compaction and builds every request from this projection.
  // Pi's estimates count the system message of the prompt Repa actually sends, not Pi's own.
  const sessionManager = withModelContext(original, () => ({
    learningContext: hooks.settings()?.learningContext ?? true,
    studySummary: hooks.settings()?.studySummary ?? true,
    systemPrompt: hooks.prompt()?.text,
  }));
  const trusted = options.trusted ?? false;
  let withheldInstructions: readonly string[] = [];
  // Spec R13: Pi reads a space's own files synchronously; a trusted space's must be safe to read.
  if (trusted) await checkTrustedPiFiles(space);
  else withheldInstructions = await withheldInstructionFiles(space);
  const settingsManager =
    options.piSettings ?? SettingsManager.create(space, agentDir, { projectTrusted: trusted });
  // An embedder's own settings manager follows Repa's trust too: Pi's project trust is Repa's.
  settingsManager.setProjectTrusted(trusted);
  // Saves and commands ask the active run's learner, when its `tools.edits` is `ask` (R36, R37).
  const approvals: ToolApprovals = {
    asking: () => hooks.approvals()?.asking() ?? false,
    readOnly: () => hooks.approvals()?.readOnly?.() ?? false,
    approve: async (ask, signal) => hooks.approvals()?.approve(ask, signal),
  };
  const tools = createContentTools({
    store,
    observer,
    approvals,
    skillFiles: () => hooks.offeredSkills(),
    newOperationId: () => hooks.operationId(),
    ocrLanguages: () => hooks.ocrLanguages(),
  });
  const toolNames = tools.map((tool) => tool.name);
  const bash = parts.bash.tool({
    store,
    observer,
    hidden: [options.appDirectory, agentDir],
    approvals,
    ...options.bashLimits,
    onChanges: async (changes) => {
      hooks.emit({ type: 'file-change-notice', changes });
      // Listed by a diff or rewind of the run as not rewindable (a command leaves no receipts);
      // recorded before the command's result, so a diff right after the run lists them.
      await recordCommandChanges(store, hooks.operationId(), changes).catch(() => undefined);
    },
  });
  // Spec R26: services + fromServices keep Repa's prompt ownership, trust and content tools.
  const services = await createAgentSessionServices({
    cwd: space,
    agentDir,
    settingsManager,
    modelRuntime,
    resourceLoaderOptions: {
      // Spec R75: what Pi's packages and the learner's own Pi folders bring (extensions, skills,
      // prompt templates) loads; a space's own only when trusted (Pi's project trust is Repa's).
      // Skills and instruction files are shown according to the run's settings (R13, R35).
      noThemes: true,
      // An untrusted space's instruction files are not even read (a FIFO would stall Pi).
      noContextFiles: !trusted,
      extensionFactories: [
        ...(options.extensions ?? []),
        {
          name: REPA_EXTENSION_NAME,
          factory: repaExtension({ observer, sessionManager: original }, hooks),
        },
      ],
    },
  });
  // Spec R34: no extension may replace a Repa tool, nor run from an untrusted space's own `.pi/`.
  const resourceLoader = withoutRefusedExtensions(
    withSkillsWithinSpace(services.resourceLoader, space),
    { reserved: [...new Set([...REPA_TOOL_NAMES, ...toolNames, bash.name])], trusted },
  );
  const extensionToolNames = extensionTools(resourceLoader).map((tool) => tool.name);
  const { session } = await createAgentSessionFromServices({
    services: { ...services, resourceLoader },
    sessionManager,
    model,
    thinkingLevel: options.thinkingLevel ?? 'off',
    customTools: [...tools, bash],
    tools: [...toolNames, bash.name, ...extensionToolNames],
  });
  session.setActiveToolsByName([...toolNames]);
  await session.bindExtensions({
    onError: (error) => options.onExtensionError?.(error),
  });
  return {
    session,
    sessionManager: original,
    toolNames,
    extensionToolNames,
    withheldInstructions,
    packageResources: packageResources(resourceLoader),
    diagnostics: resourceDiagnostics(resourceLoader, services.diagnostics),
  };
}

/** Repa's inline extension, installed last (spec R34). */
function repaExtension(
  parts: { observer: ContentObserver; sessionManager: SessionManager },
  hooks: SessionHooks,
): ExtensionFactory {
  return (pi) => {
    pi.on('before_agent_start', (event) => {
      // Another extension's `systemPrompt` would replace every system message after
      // `context_with_system`; as the last handler, Repa's own prompt wins (spec R34, and
      // "Where Pi 0.87.1 differs" in docs/design.md).
      const prompt = hooks.assemblePrompt(hooks.settings());
      event.systemPromptOptions.forceSystemPrompt = prompt.text;
      return undefined;
    });
    pi.on('context', async (event) => {
      const settings = hooks.settings();
      if (!settings || settings.fileChanges === 'off') return undefined;
      const report = await parts.observer.checkChanges(settings.fileChanges);
      const message = buildFileChangeMessage(report, settings.fileChanges, {
        receipts: hooks.receipts(),
      });
      if (!message) return undefined;
      injectFileChangeMessage(parts.sessionManager, event.messages, message);
      hooks.emit({ type: 'file-change-notice', changes: message.details.changes });
      return { messages: event.messages };
    });
    pi.on('context_with_system', (event) => {
      const prompt = hooks.prompt() ?? hooks.assemblePrompt(undefined);
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
      const settings = hooks.settings();
      if (settings) filterCompactionPreparation(event.preparation, settings);
      hooks.compactions.prepared(event.preparation);
      return undefined;
    });
  };
}
