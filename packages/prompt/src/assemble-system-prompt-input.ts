import type { PromptSettings, SettingsLevel, StudyMode } from '@repa/protocol';
import {
  invalidRequestFromZod,
  promptSettingsSchema,
  settingsLevelSchema,
  studyModeSchema,
} from '@repa/protocol/schemas';
import { z } from 'zod';

/** Facts about the working environment, read by the caller (the prompt never reads them itself). */
export interface PromptEnvironment {
  /** Absolute path of the space root, as the model should see it. */
  spaceRoot: string;
  /** The space's display name. */
  spaceName: string;
  /** The platform, e.g. `linux` (the caller's `process.platform`). */
  platform: string;
  /** Today's date, already formatted by the caller, e.g. `2025-06-01`. */
  date: string;
}

/** One skill of the catalog, as the host resolved it (model-invocable skills only). */
export interface PromptSkill {
  /** The skill's name. */
  name: string;
  /** When to use it. */
  description: string;
  /** Where its file is (the path the model reads it from). */
  location: string;
}

/** One outside material granted to the space, as the host found it (spec R15, R54). */
export interface PromptMaterial {
  /** `repa:material/<id>`. */
  identity: string;
  /** The learner's title. */
  title?: string | undefined;
  /** What it was when granted: `pdf`, `docx`, `epub`, `html` or `text`. */
  type?: string | undefined;
  /** Its size now, in bytes. */
  bytes?: number | undefined;
  /** `ok`, `vanished` (its file is gone) or `changed` (no longer of its type). */
  state: 'ok' | 'vanished' | 'changed';
  /** With `changed`: what it is now. */
  currentType?: string | undefined;
}

/** One project instruction file the host found, with its text. */
export interface PromptInstructionFile {
  /** The file's path as the model should see it. */
  path: string;
  /** The file's text, included verbatim. */
  text: string;
}

/** The project instruction files found and whether the host trusts them (R13). */
export interface PromptProjectInstructions {
  /** Whether the host's extension-trust rule allows these files into the prompt. */
  trusted: boolean;
  /** The files found, in the order they should appear. */
  files: readonly PromptInstructionFile[];
}

/** One tool that is actually enabled for the run, as Pi resolved it (R35). */
export interface PromptTool {
  /** The tool's name. */
  name: string;
  /** The tool's description. */
  description: string;
  /**
   * One line saying what the tool is for (Pi's `promptSnippet`). When given, the section shows it
   * instead of the description, which the model already receives with the tool's schema.
   */
  snippet?: string | undefined;
  /** Extra guideline lines the tool contributes to the prompt (Pi's `promptGuidelines`). */
  promptGuidelines?: readonly string[];
}

/** Everything {@link assembleSystemPrompt} needs; all of it is supplied by the caller. */
export interface AssembleSystemPromptInput {
  /** The run's resolved `prompts.*` settings. */
  settings: PromptSettings;
  /** The level each setting came from, used in the reasons of the section report. */
  sources?: Partial<Record<keyof PromptSettings, SettingsLevel>>;
  /** Facts for the `environment` section. */
  environment: PromptEnvironment;
  /** The skill catalog, in the order to show it. */
  skills: readonly PromptSkill[];
  /** The project instruction files and their trust. */
  projectInstructions: PromptProjectInstructions;
  /** The enabled tools, in the order to show them. */
  tools: readonly PromptTool[];
  /** The outside materials granted to the space, in the order to show them (none by default). */
  materials?: readonly PromptMaterial[] | undefined;
  /** The run's `study.mode` and where it came from; absent is `answer` (no `tutor` section). */
  study?: PromptStudyMode | undefined;
}

/** The run's `study.mode`, with the level (or `run`, a one-run override) it came from. */
export interface PromptStudyMode {
  /** `answer` or `tutor`. */
  mode: StudyMode;
  /** Where the mode came from, named in the section's reason. */
  source?: SettingsLevel | 'run' | undefined;
}

const sourcesSchema = z.object({
  base: settingsLevelSchema.optional(),
  append: settingsLevelSchema.optional(),
  projectInstructions: settingsLevelSchema.optional(),
  skillCatalog: settingsLevelSchema.optional(),
  environment: settingsLevelSchema.optional(),
  learningContext: settingsLevelSchema.optional(),
  fileChanges: settingsLevelSchema.optional(),
  citations: settingsLevelSchema.optional(),
  studySummary: settingsLevelSchema.optional(),
});

const inputSchema: z.ZodType<AssembleSystemPromptInput> = z.object({
  settings: promptSettingsSchema,
  sources: sourcesSchema.optional(),
  environment: z.object({
    spaceRoot: z.string(),
    spaceName: z.string(),
    platform: z.string(),
    date: z.string(),
  }),
  skills: z.array(z.object({ name: z.string(), description: z.string(), location: z.string() })),
  projectInstructions: z.object({
    trusted: z.boolean(),
    files: z.array(z.object({ path: z.string(), text: z.string() })),
  }),
  tools: z.array(
    z.object({
      name: z.string().min(1),
      description: z.string(),
      snippet: z.string().optional(),
      promptGuidelines: z.array(z.string()).optional(),
    }),
  ),
  materials: z
    .array(
      z.object({
        identity: z.string().regex(/^repa:material\/[A-Za-z0-9_-]{1,100}$/u),
        title: z.string().optional(),
        type: z.string().optional(),
        bytes: z.number().int().nonnegative().optional(),
        state: z.enum(['ok', 'vanished', 'changed']),
        currentType: z.string().optional(),
      }),
    )
    .optional(),
  study: z
    .object({
      mode: studyModeSchema,
      source: z.enum([...settingsLevelSchema.options, 'run']).optional(),
    })
    .optional(),
});

/**
 * Check the input's shape and return a plain copy of it (unknown fields dropped).
 * Throws `RepaError('invalid_request')` naming each bad field, e.g. `input.settings.fileChanges`.
 */
export function parseAssembleSystemPromptInput(input: unknown): AssembleSystemPromptInput {
  const result = inputSchema.safeParse(input);
  if (!result.success) throw invalidRequestFromZod(result.error, input, 'input');
  return result.data;
}
