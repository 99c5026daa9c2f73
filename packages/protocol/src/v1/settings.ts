import { z } from 'zod';
import { idSchema, spaceRootSchema } from './common.js';

/** The levels of settings inheritance, weakest first: default < application < space < session. */
export const settingsLevelSchema = z.enum(['default', 'application', 'space', 'session']);
/** A settings inheritance level. */
export type SettingsLevel = z.infer<typeof settingsLevelSchema>;

/** The levels a client may write (`default` is built in). */
export const writableSettingsLevelSchema = z.enum(['application', 'space', 'session']);
/** A settings level a client may write. */
export type WritableSettingsLevel = z.infer<typeof writableSettingsLevelSchema>;

/**
 * How ordinary file changes are told to the model:
 * `off` never; `on-demand` (default) a short notice naming changed files, diff left to a re-read;
 * `notice` a notice with sizes and versions; `diff` a bounded unified diff when the old text is known.
 */
export const fileChangesModeSchema = z.enum(['off', 'on-demand', 'notice', 'diff']);
/** A `prompts.fileChanges` mode. */
export type FileChangesMode = z.infer<typeof fileChangesModeSchema>;

/** The effective `prompts.*` settings decided for one run. */
export const promptSettingsSchema = z.object({
  /** Base prompt; `null` is Repa's built-in base prompt, `""` is an explicitly empty one. */
  base: z.string().nullable(),
  /** Text appended after everything else; `""` appends nothing. */
  append: z.string(),
  /** Include the space's project instruction files (only when the host trusts them). Default false. */
  projectInstructions: z.boolean(),
  /** Include the skill catalog. Default true. */
  skillCatalog: z.boolean(),
  /** Describe the working environment (space root, platform, date). Default true. */
  environment: z.boolean(),
  /** Provide the space's learning context to the model. Default true. */
  learningContext: z.boolean(),
  /** How file changes are told to the model. Default `on-demand`. */
  fileChanges: fileChangesModeSchema,
});
/** The effective `prompts.*` settings decided for one run. */
export type PromptSettings = z.infer<typeof promptSettingsSchema>;

/** The level each effective `prompts.*` setting of a run came from (spec R10, R20). */
export const promptSettingsSourcesSchema = z.partialRecord(
  promptSettingsSchema.keyof(),
  settingsLevelSchema,
);
/** The level each effective `prompts.*` setting of a run came from. */
export type PromptSettingsSources = z.infer<typeof promptSettingsSourcesSchema>;

/** Pi's thinking levels, from none to the most; a model without reasoning runs at `off`. */
export const thinkingLevelSchema = z.enum(['off', 'minimal', 'low', 'medium', 'high', 'xhigh']);
/** A Pi thinking level. */
export type ThinkingLevel = z.infer<typeof thinkingLevelSchema>;

/** The model settings decided for one run (`model.id`, `model.thinkingLevel`, `tools.enabled`). */
export const modelSettingsSchema = z.object({
  /** `provider/id` of the model; `null` (default) is the model Pi itself would choose. */
  model: z.string().min(1).nullable(),
  /** Pi thinking level; `null` (default) is Pi's own default level. */
  thinkingLevel: thinkingLevelSchema.nullable(),
  /** The tool names the run may use; `null` (default) is every content and search tool. */
  tools: z.array(z.string().min(1)).nullable(),
});
/** The model settings decided for one run. */
export type ModelSettings = z.infer<typeof modelSettingsSchema>;

/** Where each model setting of a run came from: a settings level, or `run` for a one-run override. */
export const modelSettingsSourcesSchema = z.partialRecord(
  modelSettingsSchema.keyof(),
  z.enum([...settingsLevelSchema.options, 'run']),
);
/** Where each model setting of a run came from. */
export type ModelSettingsSources = z.infer<typeof modelSettingsSourcesSchema>;

/** One level's override of one item. */
export const settingOverrideSchema = z.object({
  /** The stored value. */
  value: z.unknown(),
  /** Grows on every set or reset of this item at this level. */
  revision: z.number().int().nonnegative(),
});

/** What `settings.get` reports for one item. */
export const settingItemViewSchema = z.looseObject({
  /** Dotted key, e.g. `prompts.base`. */
  key: z.string(),
  /** The effective value. */
  value: z.unknown(),
  /** The level the effective value comes from. */
  source: settingsLevelSchema,
  /** The built-in default. */
  defaultValue: z.unknown(),
  /** The override stored at each level, when there is one. */
  overrides: z.object({
    application: settingOverrideSchema.optional(),
    space: settingOverrideSchema.optional(),
    session: settingOverrideSchema.optional(),
  }),
  /** The current revision at each writable level, even without an override (for `expectedRevision`). */
  revisions: z.object({
    application: z.number().int().nonnegative(),
    space: z.number().int().nonnegative().optional(),
    session: z.number().int().nonnegative().optional(),
  }),
});
/** What `settings.get` reports for one item. */
export type SettingItemView = z.infer<typeof settingItemViewSchema>;

/** Where a settings call applies: the application alone, a space, or a session in a space. */
export const settingsScopeSchema = z.object({
  /** The space root; required for `space` and `session` levels. */
  space: spaceRootSchema.optional(),
  /** The session id; required for the `session` level. */
  sessionId: idSchema.optional(),
});
