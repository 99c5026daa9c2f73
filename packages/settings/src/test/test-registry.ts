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
