import {
  daemonIdleMinutesSchema,
  type ModelSettings,
  modelSettingsSchema,
  type PromptSettings,
  promptSettingsSchema,
} from '@repa/protocol';
import type { z } from 'zod';

/** One settings item: its dotted key, the type every stored value must have, and its default. */
export interface SettingItemDefinition<T = unknown> {
  /** Dotted key, `<namespace>.<name>`, e.g. `prompts.base`. */
  readonly key: string;
  /** What the item controls, for documentation and settings screens. */
  readonly description: string;
  /** Every value stored at any level must satisfy this schema (JSON data only). */
  readonly schema: z.ZodType<T>;
  /** The built-in value used when no level overrides the item. */
  readonly defaultValue: T;
  /**
   * True when the item changes what runs or what the model is told (tools, model, thinking level,
   * prompt text, instruction files): an untrusted space's own overrides of it have no effect and a
   * space or session write of it is refused with `space_untrusted` (spec R13). Default false: the
   * item can only switch sources off or change how much a notice says.
   */
  readonly requiresTrust?: boolean;
}

/** The set of items a settings store knows; the one place a new item is declared. */
export interface SettingsRegistry {
  /** Every item, in declaration order (the order `get` reports them in). */
  readonly items: readonly SettingItemDefinition[];
  /** The item with this key, or `undefined` when the key is not declared. */
  get(key: string): SettingItemDefinition | undefined;
}

const KEY_PATTERN = /^[a-z][a-zA-Z0-9]*(\.[a-z][a-zA-Z0-9]*)+$/;

/**
 * Declares a settings item, checking that its default satisfies its own schema.
 * Use it to build a registry with {@link createSettingsRegistry}.
 */
export function defineSettingItem<T>(
  definition: SettingItemDefinition<T>,
): SettingItemDefinition<T> {
  if (!KEY_PATTERN.test(definition.key)) {
    throw new TypeError(
      `Setting key '${definition.key}' must be dotted lowerCamelCase, e.g. 'prompts.base'.`,
    );
  }
  const parsed = definition.schema.safeParse(definition.defaultValue);
  if (!parsed.success) {
    throw new TypeError(`The default of setting '${definition.key}' does not match its schema.`);
  }
  return Object.freeze({ ...definition });
}

/** Builds a registry from item definitions; throws on a duplicate key. */
export function createSettingsRegistry(items: readonly SettingItemDefinition[]): SettingsRegistry {
  const byKey = new Map<string, SettingItemDefinition>();
  for (const item of items) {
    if (byKey.has(item.key)) throw new TypeError(`Setting '${item.key}' is declared twice.`);
    byKey.set(item.key, item);
  }
  const frozen = Object.freeze([...byKey.values()]);
  return Object.freeze({ items: frozen, get: (key: string) => byKey.get(key) });
}

const shape = promptSettingsSchema.shape;

/**
 * The `prompts.*` items, one per field of the protocol's `PromptSettings` (spec R13, R14).
 * Contract: the mapped type makes a `PromptSettings` field without an item a compile error.
 */
export const promptSettingItems: {
  readonly [K in keyof PromptSettings]: SettingItemDefinition<PromptSettings[K]>;
} = {
  base: defineSettingItem({
    key: 'prompts.base',
    requiresTrust: true,
    description:
      "The base system prompt. `null` (default) is Repa's built-in base prompt; a string replaces " +
      'it, and `""` is an explicitly empty base prompt. Setting `null` at a higher level brings ' +
      'the built-in base back over a lower level.',
    schema: shape.base,
    defaultValue: null,
  }),
  append: defineSettingItem({
    key: 'prompts.append',
    requiresTrust: true,
    description: 'Text appended after everything else in the system prompt. Default `""`.',
    schema: shape.append,
    defaultValue: '',
  }),
  projectInstructions: defineSettingItem({
    key: 'prompts.projectInstructions',
    description:
      "Include the space's project instruction files (only when the host trusts them). Default off.",
    schema: shape.projectInstructions,
    defaultValue: false,
  }),
  skillCatalog: defineSettingItem({
    key: 'prompts.skillCatalog',
    description: 'Include the skill catalog in the system prompt. Default on.',
    schema: shape.skillCatalog,
    defaultValue: true,
  }),
  environment: defineSettingItem({
    key: 'prompts.environment',
    description: 'Describe the working environment (space root, platform, date). Default on.',
    schema: shape.environment,
    defaultValue: true,
  }),
  learningContext: defineSettingItem({
    key: 'prompts.learningContext',
    description: "Provide the space's learning context to the model. Default on.",
    schema: shape.learningContext,
    defaultValue: true,
  }),
  fileChanges: defineSettingItem({
    key: 'prompts.fileChanges',
    description:
      'How changes to ordinary files are told to the model: `off` never; `on-demand` (default) ' +
      'a short notice naming the changed files, the model re-reads a file when it needs the ' +
      'content; `notice` a notice with sizes and versions; `diff` a bounded unified diff when ' +
      'the old text is known.',
    schema: shape.fileChanges,
    defaultValue: 'on-demand',
  }),
};

const modelShape = modelSettingsSchema.shape;

/**
 * The model items, one per field of the protocol's `ModelSettings` (spec R71, R72): applied at
 * the run boundary, recorded with the run at acceptance.
 */
export const modelSettingItems: {
  readonly [K in keyof ModelSettings]-?: SettingItemDefinition<
    Exclude<ModelSettings[K], undefined>
  >;
} = {
  model: defineSettingItem({
    key: 'model.id',
    requiresTrust: true,
    description:
      'The model of a run as `provider/id` (see `repa models`). `null` (default) is the ' +
      "daemon's model: the one Pi itself would choose from its settings and credentials.",
    schema: modelShape.model,
    defaultValue: null,
  }),
  thinkingLevel: defineSettingItem({
    key: 'model.thinkingLevel',
    requiresTrust: true,
    description:
      "Pi's thinking level: off, minimal, low, medium, high or xhigh (clamped to what the model " +
      "supports). `null` (default) is Pi's own default level.",
    schema: modelShape.thinkingLevel,
    defaultValue: null,
  }),
  tools: defineSettingItem({
    key: 'tools.enabled',
    requiresTrust: true,
    description:
      'The tool names a run may use, e.g. `["read", "grep"]`. `null` (default) is every content ' +
      'and search tool; `[]` is none.',
    schema: modelShape.tools,
    defaultValue: null,
  }),
  bash: defineSettingItem({
    key: 'tools.bash',
    requiresTrust: true,
    description:
      'Whether the model may run shell commands with the `bash` tool: `off` (default) never; ' +
      '`sandboxed` inside a bubblewrap sandbox (the space writable except `.repa`, the rest of ' +
      'the file system read-only, no network), refused with `sandbox_unavailable` when bubblewrap ' +
      'is missing, never run unsandboxed. `tools.enabled` can still leave it out.',
    schema: modelShape.bash.unwrap(),
    defaultValue: 'off',
  }),
  bashTimeoutSeconds: defineSettingItem({
    key: 'tools.bashTimeoutSeconds',
    requiresTrust: true,
    description:
      'The wall-clock limit of one `bash` command in seconds (1 to 86400); a command that runs ' +
      'longer is terminated (SIGTERM, then SIGKILL). Default 120.',
    schema: modelShape.bashTimeoutSeconds.unwrap(),
    defaultValue: 120,
  }),
};

/** `daemon.idleMinutes`: when the daemon exits by itself; read at the application level. */
export const daemonIdleMinutesItem: SettingItemDefinition<number> = defineSettingItem({
  key: 'daemon.idleMinutes',
  description:
    'Minutes without requests, connections and active or queued runs after which the daemon ' +
    'exits by itself (the next repa command starts it again); 0 never. Read at the application ' +
    'level only. Default 30.',
  schema: daemonIdleMinutesSchema,
  defaultValue: 30,
});

/** Repa's settings registry: every item Repa knows, with its type and default. */
export const settingsRegistry: SettingsRegistry = createSettingsRegistry([
  ...Object.values(promptSettingItems),
  ...Object.values(modelSettingItems),
  daemonIdleMinutesItem,
]);

/** The built-in defaults of every `prompts.*` item (spec R14), as one `PromptSettings`. */
export const DEFAULT_PROMPT_SETTINGS: Readonly<PromptSettings> = Object.freeze(
  promptSettingsSchema.parse(
    Object.fromEntries(
      Object.entries(promptSettingItems).map(([name, item]) => [name, item.defaultValue]),
    ),
  ),
);
