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

/**
 * `daemon.idleMinutes`: minutes without requests, connections and active or queued runs after
 * which the daemon exits by itself (read at the application level); 0 never. Default 30.
 */
export const daemonIdleMinutesSchema = z
  .number()
  .min(0)
  .max(10_080)
  .describe(
    'Minutes without requests, connections and active or queued runs after which the daemon exits by itself (read at the application level); 0 never. Default 30.',
  );

/** The effective `prompts.*` settings decided for one run. */
export const promptSettingsSchema = z
  .object({
    /** Base prompt; `null` is Repa's built-in base prompt, `""` is an explicitly empty one. */
    base: z
      .string()
      .nullable()
      .describe(
        'Base prompt; `null` is Repa\'s built-in base prompt, `""` is an explicitly empty one.',
      ),
    /** Text appended after everything else; `""` appends nothing. */
    append: z.string().describe('Text appended after everything else; `""` appends nothing.'),
    /** Include the space's project instruction files (only when the host trusts them). Default false. */
    projectInstructions: z
      .boolean()
      .describe(
        "Include the space's project instruction files (only when the host trusts them). Default false.",
      ),
    /** Include the skill catalog. Default true. */
    skillCatalog: z.boolean().describe('Include the skill catalog. Default true.'),
    /** Describe the working environment (space root, platform, date). Default true. */
    environment: z
      .boolean()
      .describe('Describe the working environment (space root, platform, date). Default true.'),
    /** Provide the space's learning context to the model. Default true. */
    learningContext: z
      .boolean()
      .describe("Provide the space's learning context to the model. Default true."),
    /** How file changes are told to the model. Default `on-demand`. */
    fileChanges: fileChangesModeSchema.describe(
      'How file changes are told to the model. Default `on-demand`.',
    ),
  })
  .meta({
    id: 'PromptSettings',
    description: 'The effective `prompts.*` settings decided for one run.',
  });
/** The effective `prompts.*` settings decided for one run. */
export interface PromptSettings {
  /** Base prompt; `null` is Repa's built-in base prompt, `""` is an explicitly empty one. */
  base: string | null;
  /** Text appended after everything else; `""` appends nothing. */
  append: string;
  /** Include the space's project instruction files (only when the host trusts them). Default false. */
  projectInstructions: boolean;
  /** Include the skill catalog. Default true. */
  skillCatalog: boolean;
  /** Describe the working environment (space root, platform, date). Default true. */
  environment: boolean;
  /** Provide the space's learning context to the model. Default true. */
  learningContext: boolean;
  /** How file changes are told to the model. Default `on-demand`. */
  fileChanges: FileChangesMode;
}

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

/**
 * Whether the model may run shell commands: `off` (default) never; `sandboxed` only inside an OS
 * sandbox (bubblewrap), never without one.
 */
export const bashModeSchema = z.enum(['off', 'sandboxed']);
/** A `tools.bash` mode. */
export type BashMode = z.infer<typeof bashModeSchema>;

/** The wall-clock limit of one command in seconds (`tools.bashTimeoutSeconds`, default 120). */
export const bashTimeoutSecondsSchema = z.number().int().min(1).max(86_400);

/** The model settings decided for one run (`model.id`, `model.thinkingLevel`, `tools.*`). */
export const modelSettingsSchema = z.object({
  /** `provider/id` of the model; `null` (default) is the model Pi itself would choose. */
  model: z
    .string()
    .min(1)
    .nullable()
    .describe('`provider/id` of the model; `null` (default) is the model Pi itself would choose.'),
  /** Pi thinking level; `null` (default) is Pi's own default level. */
  thinkingLevel: thinkingLevelSchema
    .nullable()
    .describe("Pi thinking level; `null` (default) is Pi's own default level."),
  /** The tool names the run may use; `null` (default) is every content and search tool. */
  tools: z
    .array(z.string().min(1))
    .nullable()
    .describe('The tool names the run may use; `null` (default) is every content and search tool.'),
  /** Whether the run may use the sandboxed `bash` tool; absent (older runs) is `off`. */
  bash: bashModeSchema
    .optional()
    .describe('Whether the run may use the sandboxed `bash` tool; absent (older runs) is `off`.'),
  /** The wall-clock limit of one `bash` command in seconds; absent (older runs) is 120. */
  bashTimeoutSeconds: bashTimeoutSecondsSchema
    .optional()
    .describe('The wall-clock limit of one `bash` command in seconds; absent (older runs) is 120.'),
});
/** The model settings decided for one run. */
export interface ModelSettings {
  /** `provider/id` of the model; `null` (default) is the model Pi itself would choose. */
  model: string | null;
  /** Pi thinking level; `null` (default) is Pi's own default level. */
  thinkingLevel: ThinkingLevel | null;
  /** The tool names the run may use; `null` (default) is every content and search tool. */
  tools: string[] | null;
  /** Whether the run may use the sandboxed `bash` tool; absent (older runs) is `off`. */
  bash?: BashMode | undefined;
  /** The wall-clock limit of one `bash` command in seconds; absent (older runs) is 120. */
  bashTimeoutSeconds?: number | undefined;
}

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
  value: z.unknown().describe('The stored value.'),
  /** Grows on every set or reset of this item at this level. */
  revision: z
    .number()
    .int()
    .nonnegative()
    .describe('Grows on every set or reset of this item at this level.'),
});

/** One level's override of one item. */
interface SettingOverride {
  /** The stored value. */
  value: unknown;
  /** Grows on every set or reset of this item at this level. */
  revision: number;
}

/** What `settings.get` reports for one item. */
export const settingItemViewSchema = z
  .looseObject({
    /** Dotted key, e.g. `prompts.base`. */
    key: z.string().describe('Dotted key, e.g. `prompts.base`.'),
    /** The effective value. */
    value: z.unknown().describe('The effective value.'),
    /** The level the effective value comes from. */
    source: settingsLevelSchema.describe('The level the effective value comes from.'),
    /** The built-in default. */
    defaultValue: z.unknown().describe('The built-in default.'),
    /** The override stored at each level, when there is one. */
    overrides: z
      .object({
        /** The override stored at the application level. */
        application: settingOverrideSchema
          .optional()
          .describe('The override stored at the application level.'),
        /** The override stored at the space level. */
        space: settingOverrideSchema.optional().describe('The override stored at the space level.'),
        /** The override stored at the session level. */
        session: settingOverrideSchema
          .optional()
          .describe('The override stored at the session level.'),
      })
      .describe('The override stored at each level, when there is one.'),
    /** The current revision at each writable level, even without an override (for `expectedRevision`). */
    revisions: z
      .object({
        /** The application level's revision. */
        application: z.number().int().nonnegative().describe("The application level's revision."),
        /** The space level's revision (when the call named a space). */
        space: z
          .number()
          .int()
          .nonnegative()
          .optional()
          .describe("The space level's revision (when the call named a space)."),
        /** The session level's revision (when the call named a session). */
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
    /** The levels whose override has no effect, and why (an untrusted space's own settings). */
    ignored: z
      .looseObject({
        /** The levels whose override is left out of `value`. */
        levels: z
          .array(writableSettingsLevelSchema)
          .describe('The levels whose override is left out of `value`.'),
        /** Why, in a sentence with what to do. */
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
/** What `settings.get` reports for one item. */
export interface SettingItemView {
  /** Dotted key, e.g. `prompts.base`. */
  key: string;
  /** The effective value. */
  value: unknown;
  /** The level the effective value comes from. */
  source: SettingsLevel;
  /** The built-in default. */
  defaultValue: unknown;
  /** The override stored at each level, when there is one. */
  overrides: {
    /** The override stored at the application level. */
    application?: SettingOverride | undefined;
    /** The override stored at the space level. */
    space?: SettingOverride | undefined;
    /** The override stored at the session level. */
    session?: SettingOverride | undefined;
  };
  /** The current revision at each writable level, even without an override (for `expectedRevision`). */
  revisions: {
    /** The application level's revision. */
    application: number;
    /** The space level's revision (when the call named a space). */
    space?: number | undefined;
    /** The session level's revision (when the call named a session). */
    session?: number | undefined;
  };
  /** The levels whose override has no effect, and why (an untrusted space's own settings). */
  ignored?:
    | {
        /** The levels whose override is left out of `value`. */
        levels: WritableSettingsLevel[];
        /** Why, in a sentence with what to do. */
        reason: string;
        /** Members a newer server may add. */
        [member: string]: unknown;
      }
    | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** Where a settings call applies: the application alone, a space, or a session in a space. */
export const settingsScopeSchema = z.strictObject({
  /** The space root (an absolute path); required for `space` and `session` levels. */
  space: spaceRootSchema
    .optional()
    .describe('The space root (an absolute path); required for `space` and `session` levels.'),
  /** The session id; required for the `session` level. */
  sessionId: idSchema.optional().describe('The session id; required for the `session` level.'),
});

/**
 * Every settings item key with the type of its value: `prompts.<name>` per `PromptSettings` field,
 * then the model items (`model.id`, `model.thinkingLevel`, `tools.enabled`, `tools.bash`,
 * `tools.bashTimeoutSeconds`), then `daemon.idleMinutes`.
 */
const SETTING_VALUES: (readonly [string, z.ZodType])[] = [
  ...Object.entries(promptSettingsSchema.shape).map(
    ([name, value]) => [`prompts.${name}`, value] as const,
  ),
  ['model.id', modelSettingsSchema.shape.model],
  ['model.thinkingLevel', modelSettingsSchema.shape.thinkingLevel],
  ['tools.enabled', modelSettingsSchema.shape.tools],
  ['tools.bash', bashModeSchema],
  ['tools.bashTimeoutSeconds', bashTimeoutSecondsSchema],
  ['daemon.idleMinutes', daemonIdleMinutesSchema],
];

/** Every settings item key this protocol version knows. */
export const SETTING_KEYS = SETTING_VALUES.map(([key]) => key);

const unknownSetting = `Unknown setting; known settings: ${SETTING_KEYS.join(', ')}.`;

// JSON Schema only (the settings store checks the same at run time): which level needs which field.
const LEVEL_REQUIREMENTS = {
  allOf: [levelRequires('space', ['space']), levelRequires('session', ['space', 'sessionId'])],
};

/** JSON Schema `if`/`then`: a write at `level` must carry `fields`. */
function levelRequires(level: string, fields: string[]): Record<string, unknown> {
  return {
    if: { type: 'object', properties: { level: { const: level } }, required: ['level'] },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's `then` keyword, not a thenable.
    then: { type: 'object', required: fields },
  };
}

const writeFields = {
  ...settingsScopeSchema.shape,
  /** The level to write; `space` needs `space`, `session` needs `space` and `sessionId`. */
  level: writableSettingsLevelSchema.describe(
    'The level to write; `space` needs `space`, `session` needs `space` and `sessionId`.',
  ),
  /** Refuse with `stale_version` unless the level's revision is this. */
  expectedRevision: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe("Refuse with `stale_version` unless the level's revision is this."),
};

/** `settings.set` params (in TypeScript: any key, any value; the schema checks them per key). */
export interface SettingsSetParams {
  /** The space root (an absolute path); required for `space` and `session` levels. */
  space?: string;
  /** The session id; required for the `session` level. */
  sessionId?: string;
  /** The level to write; `space` needs `space`, `session` needs `space` and `sessionId`. */
  level: WritableSettingsLevel;
  /** Dotted item key. */
  key: string;
  /** The complete new value of the item. */
  value: unknown;
  /** Refuse with `stale_version` unless the level's revision is this. */
  expectedRevision?: number | undefined;
}

/** `settings.set` params: the value is typed per key (a union over every known key). */
export const settingsSetParamsSchema: z.ZodType<SettingsSetParams> = z
  .discriminatedUnion(
    'key',
    SETTING_VALUES.map(([key, value]) =>
      z.strictObject({
        ...writeFields,
        /** Dotted item key. */
        key: z.literal(key).describe('Dotted item key.'),
        /** The complete new value of the item. */
        value: value.describe('The complete new value of the item.'),
      }),
    ) as unknown as readonly [z.ZodObject, ...z.ZodObject[]],
    { error: () => unknownSetting },
  )
  .meta(LEVEL_REQUIREMENTS) as unknown as z.ZodType<SettingsSetParams>;

/** `settings.reset` params. */
export const settingsResetParamsSchema = z
  .strictObject({
    ...writeFields,
    /** Dotted item key, e.g. `prompts.base`. */
    key: z
      .enum(SETTING_KEYS as [string, ...string[]], { error: () => unknownSetting })
      .describe('Dotted item key, e.g. `prompts.base`.'),
  })
  .meta(LEVEL_REQUIREMENTS);

/** `settings.get` params: `sessionId` needs `space`. */
export const settingsGetParamsSchema = settingsScopeSchema.meta({
  dependentRequired: { sessionId: ['space'] },
});
