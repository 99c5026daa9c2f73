import { z } from 'zod';
import {
  createSettingsRegistry,
  defineSettingItem,
  settingsRegistry,
} from '../settings-registry.js';

/** Repa's items plus a list item and a string item with non-empty defaults, for tests only. */
export const testRegistry = createSettingsRegistry([
  ...settingsRegistry.items,
  defineSettingItem({
    key: 'test.tags',
    description: 'A list with a non-empty default.',
    schema: z.array(z.string()),
    defaultValue: ['alpha', 'beta'],
  }),
  defineSettingItem({
    key: 'test.note',
    description: 'A string with a non-empty default.',
    schema: z.string(),
    defaultValue: 'default note',
  }),
]);

/** Repa's items plus `test.item0` … `test.item<count-1>` (strings, default ""), as the child builds. */
export function numberedRegistry(count: number) {
  return createSettingsRegistry([
    ...settingsRegistry.items,
    ...Array.from({ length: count }, (_, index) =>
      defineSettingItem({
        key: `test.item${index}`,
        description: `Numbered test item ${index}.`,
        schema: z.string(),
        defaultValue: '',
      }),
    ),
  ]);
}
