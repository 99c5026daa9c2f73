import {
  MODEL_SETTING_ITEMS,
  type ModelSettings,
  PROMPT_SETTING_ITEMS,
  type PromptSettings,
  SETTING_ITEMS,
  type SettingItem,
} from '@repa/protocol';
import { promptSettingsSchema } from '@repa/protocol/schemas';

/**
 * One settings item as a registry takes it: the protocol's `SettingItem` (key, description, value
 * schema, default, trust rule) without what is worked out for display. Default `requiresTrust`:
 * false.
 */
export type SettingItemDefinition<T = unknown> = Pick<
  SettingItem<T>,
  'key' | 'description' | 'schema' | 'defaultValue'
> &
  Partial<Pick<SettingItem<T>, 'requiresTrust'>>;

/** The set of items a settings store knows (Repa's: the protocol's `SETTING_ITEMS`). */
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

/**
 * The `prompts.*` items, one per field of the protocol's `PromptSettings` (spec R13, R14), as the
 * protocol's `SETTING_ITEMS` declares them.
 * Contract: the mapped type makes a `PromptSettings` field without an item a compile error.
 */
export const promptSettingItems: {
  readonly [K in keyof PromptSettings]: SettingItemDefinition<PromptSettings[K]>;
} = PROMPT_SETTING_ITEMS;

/**
 * The model items, one per field of the protocol's `ModelSettings` (spec R71, R72): applied at
 * the run boundary, recorded with the run at acceptance.
 */
export const modelSettingItems: {
  readonly [K in keyof ModelSettings]-?: SettingItemDefinition<
    Exclude<ModelSettings[K], undefined>
  >;
} = MODEL_SETTING_ITEMS;

/** Repa's settings registry: every item of the protocol's `SETTING_ITEMS`, each checked. */
export const settingsRegistry: SettingsRegistry = createSettingsRegistry(
  SETTING_ITEMS.map((item) => defineSettingItem(item)),
);

/** The built-in defaults of every `prompts.*` item (spec R14), as one `PromptSettings`. */
export const DEFAULT_PROMPT_SETTINGS: Readonly<PromptSettings> = Object.freeze(
  promptSettingsSchema.parse(
    Object.fromEntries(
      Object.entries(promptSettingItems).map(([name, item]) => [name, item.defaultValue]),
    ),
  ),
);
