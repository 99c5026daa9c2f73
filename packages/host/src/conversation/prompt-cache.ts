import { basename } from 'node:path';
import type { AgentSession, SessionManager } from '@earendil-works/pi-coding-agent';
import { listMaterials } from '@repa/content';
import {
  type AssembledSystemPrompt,
  assembleSystemPrompt,
  type PromptMaterial,
  type PromptStudyMode,
} from '@repa/prompt';
import type { PromptSettings, PromptSettingsSources } from '@repa/protocol';
import { appendDateNotice } from './run-preparation.js';

/** What a session's prompts are assembled from besides the run's settings. */
export interface PromptCacheOptions {
  /** Pi's session: its loaded skills and instruction files, and its active tools. */
  session: AgentSession;
  /** The space root. */
  space: string;
  /** Repa's application directory (the grants of outside materials). */
  appDirectory: string;
  /** Whether the learner trusts the space. */
  trusted: boolean;
  /** An untrusted space's instruction files, unread: the prompt report names them as withheld. */
  withheldInstructions: readonly string[];
  /** The clock whose day the environment section shows when a prompt is assembled. */
  now?: (() => Date) | undefined;
}

/**
 * A session's system prompts (spec R30, R35): assembled by `assembleSystemPrompt` from the run's
 * settings and what Pi loaded, and reused while that input stays the same.
 */
export class PromptCache {
  readonly #options: PromptCacheOptions;
  /**
   * The last assembled prompt with its input: the run's own input (as JSON) and the objects the
   * rest comes from (Pi's skill and instruction lists, the active tool definitions), which Pi
   * replaces rather than changes.
   */
  #assembled:
    | { key: string; sources: readonly unknown[]; prompt: AssembledSystemPrompt; date: string }
    | undefined;
  #last: AssembledSystemPrompt | undefined;
  #offeredSkills: readonly string[] = [];
  /** The materials this space may read, as of the last {@link refreshMaterials}. */
  #materials: readonly PromptMaterial[] = [];
  /** The day a date notice last told the model (see {@link tellNewDay}). */
  #notedDate: string | undefined;

  constructor(options: PromptCacheOptions) {
    this.#options = options;
  }

  /** The prompt assembled last, if any. */
  get last(): AssembledSystemPrompt | undefined {
    return this.#last;
  }

  /**
   * The day the last prompt's environment section shows (`undefined` when it has none): the day it
   * was assembled, kept while the prompt is reused (see {@link assemble}).
   */
  get shownDate(): string | undefined {
    const assembled = this.#assembled;
    return assembled?.prompt.sections.environment === undefined ? undefined : assembled.date;
  }

  /** Today as the environment section writes a day (`2026-03-01`, UTC). */
  today(): string {
    return (this.#options.now?.() ?? new Date()).toISOString().slice(0, 10);
  }

  /**
   * Tells the model today's date (`appendDateNotice`) once per day when the reused prompt shows an
   * earlier one: a session across midnight keeps its prompt (the cached prefix).
   */
  tellNewDay(sessionManager: SessionManager): void {
    const today = this.today();
    const shown = this.shownDate;
    if (shown === undefined || shown === today || this.#notedDate === today) return;
    appendDateNotice(sessionManager, today);
    this.#notedDate = today;
  }

  /** The skill files the last assembled prompt's catalog offers (readable with `read`, R54). */
  get offeredSkills(): readonly string[] {
    return this.#offeredSkills;
  }

  /**
   * Reads which outside materials the space may read now (spec R15), for the next prompt: the
   * model is told them by identity, title, type and size (a change assembles the prompt again).
   */
  async refreshMaterials(): Promise<void> {
    this.#materials = await promptMaterials(this.#options.appDirectory, this.#options.space);
  }

  /**
   * The prompt for these settings, assembled again only when its input changed. A new day alone
   * is not a change: the prompt keeps the day it was assembled on, so every request of a session
   * repeats the previous one's prefix (the provider's prompt cache) across midnight, and the run
   * tells the model the new day in a message instead ({@link shownDate}).
   */
  assemble(
    settings: PromptSettings,
    sources: PromptSettingsSources | undefined,
    study?: PromptStudyMode,
  ): AssembledSystemPrompt {
    const { session, space, trusted } = this.#options;
    const loader = session.resourceLoader;
    const skillList = loader.getSkills().skills;
    const agentsFiles = loader.getAgentsFiles().agentsFiles;
    const active = new Set(session.getActiveToolNames());
    const tools = session.getAllTools().filter((tool) => active.has(tool.name));
    const skills = skillList.map((skill) => ({
      name: skill.name,
      description: skill.description,
      location: skill.filePath,
    }));
    // The prompt is a pure function of its input: a run whose input equals the last one's (the
    // usual case: same settings, files and tools) reuses it instead of assembling it again.
    const materials = this.#materials;
    const key = JSON.stringify({ settings, sources, trusted, materials, study });
    const inputs = [
      skillList,
      agentsFiles,
      ...tools.map((tool) => session.getToolDefinition(tool.name)),
    ];
    const reuse =
      this.#assembled?.key === key &&
      this.#assembled.sources.length === inputs.length &&
      this.#assembled.sources.every((input, index) => input === inputs[index]);
    const date = reuse && this.#assembled ? this.#assembled.date : this.today();
    const prompt =
      reuse && this.#assembled
        ? this.#assembled.prompt
        : assembleSystemPrompt({
            settings,
            sources,
            environment: {
              spaceRoot: space,
              spaceName: basename(space),
              platform: process.platform,
              date,
            },
            skills,
            projectInstructions: {
              trusted,
              files: trusted
                ? agentsFiles.map((file) => ({ path: file.path, text: file.content }))
                : this.#options.withheldInstructions.map((path) => ({ path, text: '' })),
            },
            tools: tools.map((tool) => ({
              name: tool.name,
              description: tool.description,
              snippet: session.getToolDefinition(tool.name)?.promptSnippet,
              promptGuidelines: tool.promptGuidelines && [...tool.promptGuidelines],
            })),
            materials,
            study,
          });
    this.#assembled = { key, sources: inputs, prompt, date };
    this.#last = prompt;
    // Contract: only the skills the model is shown become readable, at the location shown.
    this.#offeredSkills =
      prompt.sections.skillCatalog === undefined ? [] : skills.map((skill) => skill.location);
    return prompt;
  }
}

/**
 * What the prompt tells the model of the materials `space` may read (identity, title, type, size,
 * state; never their paths). A grants file that cannot be read tells nothing: the reads of its
 * materials then fail with its error.
 */
async function promptMaterials(appDirectory: string, space: string): Promise<PromptMaterial[]> {
  try {
    const { materials } = await listMaterials(appDirectory, { space });
    return materials.map((material) => ({
      identity: material.identity,
      title: material.title,
      type: material.type,
      bytes: material.bytes,
      state: material.state,
      currentType: material.currentType,
    }));
  } catch {
    return [];
  }
}
