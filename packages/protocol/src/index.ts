export {
  createRepaClient,
  type RepaClient,
  type RepaClientMethod,
  type RepaClientOptions,
  type RepaClientTarget,
} from './client/create-repa-client.js';
export {
  type DaemonPaths,
  daemonPaths,
  type ResolveAppDirectoryOptions,
  resolveAppDirectory,
} from './daemon/app-directory.js';
export {
  type DaemonFailure,
  type DaemonReady,
  formatDaemonFailure,
  formatDaemonReady,
  OFFLINE_MODEL_ID,
  parseDaemonFailure,
  parseDaemonReady,
} from './daemon/daemon-output.js';
export { isProcessAlive, readPidFile } from './daemon/daemon-pid.js';
export {
  isRepaErrorCode,
  REPA_ERROR_CODES,
  REPA_ERROR_FIXES,
  RepaError,
  type RepaErrorCode,
  type RepaErrorOptions,
  type WireError,
  wireErrorSchema,
} from './errors/repa-error.js';
export { parseToolErrorText, toolErrorText } from './errors/tool-error-text.js';
export {
  idSchema,
  PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  spaceRootSchema,
  timestampSchema,
  versionSchema,
} from './v1/common.js';
export {
  type FileChange,
  type FileChangeReport,
  fileChangeReportSchema,
  fileChangeSchema,
  type SaveReceipt,
  saveReceiptSchema,
} from './v1/content.js';
export { invalidRequestFromZod } from './v1/json-rpc.js';
export { type V1JsonSchemas, v1JsonSchemas } from './v1/json-schema.js';
export {
  type LoginProgress,
  type LoginType,
  loginProgressSchema,
  loginTypeSchema,
} from './v1/login.js';
export {
  type LearningContext,
  type LearningContextSourceState,
  learningContextSchema,
  learningContextSourceStateSchema,
  type V1Method,
  type V1Notification,
  type V1NotificationParams,
  type V1Params,
  type V1Result,
  v1Methods,
  v1Notifications,
} from './v1/methods.js';
export {
  type CredentialSource,
  credentialSourceSchema,
  type ModelInfo,
  modelInfoSchema,
} from './v1/models.js';
export {
  type PromptSectionName,
  type PromptSectionReport,
  promptSectionNameSchema,
  promptSectionReportSchema,
} from './v1/prompt.js';
export {
  isTerminalRunStatus,
  type RunCompactionEvent,
  type RunContextSnapshotEvent,
  type RunEvent,
  type RunEventNotification,
  type RunFileChangeNoticeEvent,
  type RunInfo,
  type RunInput,
  type RunOverrides,
  type RunPromptSectionsEvent,
  type RunRetryEvent,
  type RunStatus,
  type RunStatusEvent,
  type RunTextDeltaEvent,
  type RunToolEndEvent,
  type RunToolStartEvent,
  type RunUsage,
  runEventNotificationSchema,
  runEventSchema,
  runInfoSchema,
  runInputSchema,
  runOverridesSchema,
  runStatusSchema,
  runUsageSchema,
} from './v1/runs.js';
export {
  type HistoryItem,
  historyItemSchema,
  type SessionInfo,
  sessionInfoSchema,
} from './v1/sessions.js';
export {
  type FileChangesMode,
  fileChangesModeSchema,
  type ModelSettings,
  type ModelSettingsSources,
  modelSettingsSchema,
  modelSettingsSourcesSchema,
  type PromptSettings,
  type PromptSettingsSources,
  promptSettingsSchema,
  promptSettingsSourcesSchema,
  type SettingItemView,
  type SettingsLevel,
  settingItemViewSchema,
  settingOverrideSchema,
  settingsLevelSchema,
  settingsScopeSchema,
  type ThinkingLevel,
  thinkingLevelSchema,
  type WritableSettingsLevel,
  writableSettingsLevelSchema,
} from './v1/settings.js';
