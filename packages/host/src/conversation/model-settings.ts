import type { Model, ModelThinkingLevel } from '@earendil-works/pi-ai';
import type { AgentSession, ModelRuntime } from '@earendil-works/pi-coding-agent';
import { type ModelSettings, RepaError } from '@repa/protocol';
import { DEFAULT_BASH_TIMEOUT_SECONDS, type HostBashTool } from '../bash-settings.js';
import { findModel, noCredentialsError } from '../models/index.js';

/** The tools that save files: not offered while `tools.edits` is `off` or in tutor mode. */
const SAVING_TOOLS: readonly string[] = ['write', 'edit', 'apply_patch'];

/**
 * The tools a run's settings withhold to keep it read-only, with how to offer them again: the
 * saving tools while `tools.edits` is `off`; those and `bash` in tutor mode (`study.mode`).
 */
function withheldTools(settings: ModelSettings): { names: readonly string[]; fix: string } {
  if (settings.studyMode === 'tutor') {
    return {
      names: [...SAVING_TOOLS, 'bash'],
      fix: 'Leave tutor mode with `repa settings set study.mode answer` (or `/tutor` in chat)',
    };
  }
  if (settings.edits === 'off') {
    return {
      names: SAVING_TOOLS,
      fix: 'Allow changes with `repa settings set tools.edits ask` (or auto)',
    };
  }
  return { names: [], fix: '' };
}

/** What a session's model settings fall back to and choose from. */
export interface ModelSettingsContext {
  /** Pi's model runtime (lookup and auth). */
  modelRuntime: ModelRuntime;
  /** The host's own model, when the settings name none. */
  model: Model<string>;
  /** The host's initial thinking level, after Pi's default one. */
  thinkingLevel?: ModelThinkingLevel | undefined;
  /** Every content and search tool the host registered (the default of `tools.enabled`). */
  toolNames: readonly string[];
  /** The tools of loaded extensions (spec R75): offered, active only when `tools.enabled` names them. */
  extensionToolNames?: readonly string[];
  /** The sandboxed `bash` tool: registered, active only when the settings allow it. */
  bash: HostBashTool;
  /** The connection recorded when the run was accepted, named when its credentials are gone. */
  connection?: string | undefined;
}

/**
 * Sets the session's model, thinking level and active tools for the next run (spec R72). Fails
 * `auth_failed` for a model without credentials, `invalid_request` for a tool the host does not
 * offer (the saving tools while `tools.edits` is `off`, those and `bash` in tutor mode), and
 * `sandbox_unavailable` when `bash` is on but its sandbox does not start.
 */
export async function applyModelSettings(
  session: AgentSession,
  settings: ModelSettings,
  context: ModelSettingsContext,
): Promise<void> {
  const { modelRuntime, toolNames, bash } = context;
  const model = settings.model ? findModel(modelRuntime, settings.model) : context.model;
  // Every run: credentials removed or expired since acceptance fail it before the model is asked.
  if (!(await modelRuntime.checkAuth(model.provider))) {
    throw noCredentialsError(model, context.connection);
  }
  // Pi's model objects are made again when its models.json changed: the fresh one is used.
  if (session.model !== model) await session.setModel(model);
  const level =
    settings.thinkingLevel ??
    session.settingsManager.getDefaultThinkingLevel() ??
    context.thinkingLevel ??
    'off';
  session.setThinkingLevel(level);
  // Read-only (`tools.edits` off, tutor mode): the withheld tools are not offered at all.
  const withheld = withheldTools(settings);
  const bashAllowed = settings.bash === 'sandboxed' && !withheld.names.includes('bash');
  const contentTools = toolNames.filter((name) => !withheld.names.includes(name));
  const defaults = [...contentTools, ...(bashAllowed ? ['bash'] : [])];
  // An extension's tool could write outside Repa's content rules: off unless named (spec R75).
  const offered = [...defaults, ...(context.extensionToolNames ?? [])];
  const tools = settings.tools ?? defaults;
  const unknown = tools.filter((name) => !offered.includes(name));
  if (unknown.length > 0) {
    throw new RepaError('invalid_request', `Unknown tool ${unknown.join(', ')} in tools.enabled.`, {
      fix: unknown.some((name) => withheld.names.includes(name))
        ? `${withheld.fix}, or remove ${unknown.join(', ')} from tools.enabled.`
        : unknown.includes('bash')
          ? 'Allow commands with `repa settings set tools.bash sandboxed`, or remove bash from tools.enabled.'
          : `Use tool names Repa offers: ${offered.join(', ')}.`,
      details: { field: 'tools.enabled', unknown },
    });
  }
  // Never a silent fall-back: without a working sandbox the run fails before the model is asked.
  if (tools.includes('bash')) await bash.check();
  bash.timeoutSeconds = settings.bashTimeoutSeconds ?? DEFAULT_BASH_TIMEOUT_SECONDS;
  session.setActiveToolsByName([...tools]);
}
