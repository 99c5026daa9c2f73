export { SETTINGS_FILE_LIMIT } from './settings-file.js';
export {
  createSettingsRegistry,
  DEFAULT_PROMPT_SETTINGS,
  defineSettingItem,
  modelSettingItems,
  type SettingItemDefinition,
  type SettingsRegistry,
  settingsRegistry,
} from './settings-registry.js';
export {
  type ResetSettingInput,
  type RunSettingsSnapshot,
  type SetSettingInput,
  type SettingsScope,
  SettingsStore,
  type SettingsStoreOptions,
} from './settings-store.js';
