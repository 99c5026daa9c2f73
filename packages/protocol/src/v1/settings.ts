import { z } from 'zod';
import { idSchema, spaceRootSchema } from './common.js';

/** The levels of settings inheritance, weakest first: default < application < space < session. */
export const settingsLevelSchema = z.enum(['default', 'application', 'space', 'session']);

/** The levels a client may write (`default` is built in). */
export const writableSettingsLevelSchema = z.enum(['application', 'space', 'session']);

/**
 * How ordinary file changes are told to the model:
 * `off` never; `on-demand` (default) a short notice naming changed files, diff left to a re-read;
 * `notice` a notice with sizes and versions; `diff` a bounded unified diff when the old text is known.
 */
export const fileChangesModeSchema = z.enum(['off', 'on-demand', 'notice', 'diff']);

/** The value of `daemon.idleMinutes`: minutes, 0 (never) to a week. */
export const daemonIdleMinutesSchema = z.number().min(0).max(10_080);

/** The value of `compaction.instructions`: standing summary instructions, or null (Pi's own). */
export const compactionInstructionsSchema = z.string().max(4000).nullable();

/** The value of `runs.retentionDays`: days an ended run is kept, 0 (forever) to a hundred years. */
export const runsRetentionDaysSchema = z.number().int().min(0).max(36_500);

/** The effective `prompts.*` settings decided for one run. */
export const promptSettingsSchema = z
  .object({
    base: z
      .string()
      .nullable()
      .describe(
        'Base prompt; `null` is Repa\'s built-in base prompt, `""` is an explicitly empty one.',
      ),
    append: z.string().describe('Text appended after everything else; `""` appends nothing.'),
    projectInstructions: z
      .boolean()
      .describe(
        "Include the space's project instruction files (only when the host trusts them). Default false.",
      ),
    skillCatalog: z.boolean().describe('Include the skill catalog. Default true.'),
    environment: z
      .boolean()
      .describe('Describe the working environment (space root, platform, date). Default true.'),
    learningContext: z
      .boolean()
      .describe("Provide the space's learning context to the model. Default true."),
    fileChanges: fileChangesModeSchema.describe(
      'How file changes are told to the model. Default `on-demand`.',
    ),
    citations: z
      .boolean()
      .optional()
      .describe(
        "Ask the model to cite the learner's documents in Repa's citation form. Default true (absent on runs recorded before the setting existed: on).",
      ),
    studySummary: z
      .boolean()
      .optional()
      .describe(
        "With the learning context, give the model a short summary of the learner's study progress observed in the study log. Default true (absent on runs recorded before the setting existed: on).",
      ),
  })
  .meta({
    id: 'PromptSettings',
    description: 'The effective `prompts.*` settings decided for one run.',
  });

/** The level each effective `prompts.*` setting of a run came from (spec R10, R20). */
export const promptSettingsSourcesSchema = z.partialRecord(
  promptSettingsSchema.keyof(),
  settingsLevelSchema,
);

/** Pi's thinking levels, from none to the most; a model without reasoning runs at `off`. */
export const thinkingLevelSchema = z.enum(['off', 'minimal', 'low', 'medium', 'high', 'xhigh']);

/**
 * Whether the model may run shell commands: `off` (default) never; `sandboxed` only inside an OS
 * sandbox (bubblewrap), never without one.
 */
export const bashModeSchema = z.enum(['off', 'sandboxed']);

/**
 * What the model's edits may do without asking: `auto` (default) saves at once; `ask` waits for the
 * learner to approve each save (and each command) with its exact diff; `off` offers no saving tool
 * and runs commands with the space read-only.
 */
export const editsModeSchema = z.enum(['auto', 'ask', 'off']);

/**
 * How the agent helps (`study.mode`): `answer` (default) answers; `tutor` asks back, hints before
 * answering, checks the learner's reasoning against the passage, and offers no saving tool or `bash`.
 */
export const studyModeSchema = z.enum(['answer', 'tutor']);

/** The wall-clock limit of one command in seconds (`tools.bashTimeoutSeconds`, default 120). */
export const bashTimeoutSecondsSchema = z.number().int().min(1).max(86_400);

/** Tesseract's language codes a run's OCR reads with (`documents.ocrLanguages`, default eng). */
export const ocrLanguagesSchema = z
  .array(z.string().regex(/^[A-Za-z]{3}(_[A-Za-z]+)*$/u))
  .max(16)
  .describe('Tesseract language codes, e.g. `["eng", "deu"]`; `[]` turns OCR off.');

/**
 * The model settings decided for one run (`model.id`, `model.thinkingLevel`, `tools.*`,
 * `study.mode`, `documents.ocrLanguages`).
 */
export const modelSettingsSchema = z.object({
  model: z
    .string()
    .min(1)
    .nullable()
    .describe('`provider/id` of the model; `null` (default) is the model Pi itself would choose.'),
  thinkingLevel: thinkingLevelSchema
    .nullable()
    .describe("Pi thinking level; `null` (default) is Pi's own default level."),
  tools: z
    .array(z.string().min(1))
    .nullable()
    .describe('The tool names the run may use; `null` (default) is every content and search tool.'),
  bash: bashModeSchema
    .optional()
    .describe('Whether the run may use the sandboxed `bash` tool; absent (older runs) is `off`.'),
  bashTimeoutSeconds: bashTimeoutSecondsSchema
    .optional()
    .describe('The wall-clock limit of one `bash` command in seconds; absent (older runs) is 120.'),
  edits: editsModeSchema
    .optional()
    .describe(
      'Whether saves and commands wait for the learner (`ask`), run at once (`auto`) or are not offered (`off`); absent (older runs) is `auto`.',
    ),
  studyMode: studyModeSchema
    .optional()
    .describe(
      'How the agent helps: `answer`, or `tutor` (asks back, hints first, read-only tools); absent (older runs) is `answer`.',
    ),
  ocrLanguages: ocrLanguagesSchema
    .optional()
    .describe(
      'The OCR languages pages without a text layer are read in; absent (older runs) is `["eng"]`.',
    ),
});

/** Where each model setting of a run came from: a settings level, or `run` for a one-run override. */
export const modelSettingsSourcesSchema = z.partialRecord(
  modelSettingsSchema.keyof(),
  z.enum([...settingsLevelSchema.options, 'run']),
);

/** One level's override of one item. */
export const settingOverrideSchema = z.object({
  value: z.unknown().describe('The stored value.'),
  revision: z
    .number()
    .int()
    .nonnegative()
    .describe('Grows on every set or reset of this item at this level.'),
});

/** What `settings.get` reports for one item. */
export const settingItemViewSchema = z
  .looseObject({
    key: z.string().describe('Dotted key, e.g. `prompts.base`.'),
    value: z.unknown().describe('The effective value.'),
    source: settingsLevelSchema.describe('The level the effective value comes from.'),
    defaultValue: z.unknown().describe('The built-in default.'),
    overrides: z
      .object({
        application: settingOverrideSchema
          .optional()
          .describe('The override stored at the application level.'),
        space: settingOverrideSchema.optional().describe('The override stored at the space level.'),
        session: settingOverrideSchema
          .optional()
          .describe('The override stored at the session level.'),
      })
      .describe('The override stored at each level, when there is one.'),
    revisions: z
      .object({
        application: z.number().int().nonnegative().describe("The application level's revision."),
        space: z
          .number()
          .int()
          .nonnegative()
          .optional()
          .describe("The space level's revision (when the call named a space)."),
        session: z
          .number()
          .int()
          .nonnegative()
          .optional()
          .describe("The session level's revision (when the call named a session)."),
      })
      .describe(
        'The current revision at each writable level, even without an override (for `expectedRevision`).',
      ),
    ignored: z
      .looseObject({
        levels: z
          .array(writableSettingsLevelSchema)
          .describe('The levels whose override is left out of `value`.'),
        reason: z.string().describe('Why, in a sentence with what to do.'),
      })
      .optional()
      .describe(
        "The levels whose override has no effect, and why (an untrusted space's own settings).",
      ),
  })
  .meta({
    id: 'SettingItemView',
    description: 'What `settings.get` reports for one item.',
  });

/** Where a settings call applies: the application alone, a space, or a session in a space. */
export const settingsScopeSchema = z.strictObject({
  space: spaceRootSchema
    .optional()
    .describe('The space root (an absolute path); required for `space` and `session` levels.'),
  sessionId: idSchema.optional().describe('The session id; required for the `session` level.'),
});
