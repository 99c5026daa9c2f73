import { z } from 'zod';
import { method } from '../method.js';
import { SETTING_ITEMS, SETTING_KEYS } from '../setting-items.js';
import {
  settingItemViewSchema,
  settingsScopeSchema,
  writableSettingsLevelSchema,
} from '../settings.js';
import type { SettingsSetParams } from '../wire-types.generated.js';

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
  level: writableSettingsLevelSchema.describe(
    'The level to write; `space` needs `space`, `session` needs `space` and `sessionId`.',
  ),
  expectedRevision: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe("Refuse with `stale_version` unless the level's revision is this."),
};

const setFields = {
  ...writeFields,
  key: z.string().describe('Dotted item key.'),
  value: z.unknown().describe('The complete new value of the item.'),
};
const resetFields = {
  ...writeFields,
  key: z.string().describe('Dotted item key, e.g. `prompts.base`.'),
};

/** `schema` with the description of `field`: a per-key schema of a field of a view below. */
const like = <T extends z.ZodType>(schema: T, field: z.ZodType): T =>
  schema.describe(field.description ?? '');

/**
 * `settings.set` params as TypeScript sees them: any key, any value (the schema below checks the
 * value per key); the generated `SettingsSetParams` is built from it.
 */
export const settingsSetParamsView = z.strictObject(setFields);
/** `settings.reset` params as TypeScript sees them: any key (the schema below checks it). */
export const settingsResetParamsView = z.strictObject(resetFields);

/** `settings.set` params: the value is typed per key (a union over every known key). */
export const settingsSetParamsSchema: z.ZodType<SettingsSetParams> = z
  .discriminatedUnion(
    'key',
    SETTING_ITEMS.map(({ key, schema }) =>
      z.strictObject({
        ...setFields,
        key: like(z.literal(key), setFields.key),
        value: like(schema, setFields.value),
      }),
    ) as unknown as readonly [z.ZodObject, ...z.ZodObject[]],
    { error: () => unknownSetting },
  )
  .meta(LEVEL_REQUIREMENTS) as unknown as z.ZodType<SettingsSetParams>;

/** `settings.reset` params. */
export const settingsResetParamsSchema = z
  .strictObject({
    ...resetFields,
    key: like(
      z.enum(SETTING_KEYS as [string, ...string[]], { error: () => unknownSetting }),
      resetFields.key,
    ),
  })
  .meta(LEVEL_REQUIREMENTS);

/** The `settings.*` methods. */
export const settingsMethods = {
  'settings.get': method({
    description: 'Every settings item as the given scope sees it.',
    params: () => settingsScopeSchema.meta({ dependentRequired: { sessionId: ['space'] } }),
    result: () =>
      z.looseObject({
        items: z.array(settingItemViewSchema).describe('Every settings item, in registry order.'),
      }),
  }),
  'settings.set': method({
    description: 'Stores the complete value of one item at one level.',
    params: () => settingsSetParamsSchema,
    result: () =>
      z.looseObject({
        item: settingItemViewSchema.describe('The item afterwards.'),
      }),
  }),
  'settings.reset': method({
    description: "Removes one item's value at one level.",
    params: () => settingsResetParamsSchema,
    result: () =>
      z.looseObject({
        item: settingItemViewSchema.describe('The item afterwards.'),
      }),
  }),
} as const;
