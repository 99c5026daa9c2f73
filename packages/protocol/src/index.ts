// The main entry is browser-safe: no Node built-in anywhere in its import graph (tested by
// index.browser.test.ts). Node-only code is exported from `@repa/protocol/node`.
export {
  createRepaClient,
  type RepaClient,
  type RepaClientMethod,
  type RepaClientOptions,
} from './client/create-repa-client.js';
export type { RepaTransport, RepaTransportFactory } from './client/repa-transport.js';
export type { RunFollower, RunUpdate } from './client/run-follower.js';
export { webSocketTransport } from './client/web-socket-transport.js';
export { OFFLINE_MODEL_ID, OFFLINE_MODEL_LABEL } from './daemon/daemon-output.js';
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
export {
  parseToolErrorText,
  toolErrorMessage,
  toolErrorText,
} from './errors/tool-error-text.js';
export {
  type ApprovalAnswer,
  type ApprovalDecision,
  type ApprovalRecord,
  approvalRecordSchema,
} from './v1/approvals.js';
export {
  type CitationLocation,
  parseCitationLocation,
} from './v1/citation-location.js';
export {
  type Citation,
  type CitationStatus,
  citationPlace,
  citationSchema,
  citationStatusSchema,
} from './v1/citations.js';
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
  type LearningContext,
  type LearningContextSourceState,
  learningContextSchema,
  learningContextSourceStateSchema,
} from './v1/learning-context.js';
export {
  type LoginProgress,
  type LoginType,
  loginProgressSchema,
  loginTypeSchema,
} from './v1/login.js';
export { type MaterialInfo, materialSchema } from './v1/methods/materials.js';
export type {
  StudyCard,
  StudyCardState,
  StudyDueCard,
  StudyProgress,
} from './v1/methods/study.js';
export type { DraftedCard, DroppedCard, DroppedCardReason } from './v1/methods/study-drafts.js';
export {
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
  MODEL_SOURCE_WORDS,
  type ModelDecision,
  type ModelInfo,
  type ModelSource,
  modelDecisionSchema,
  modelInfoSchema,
  modelSourceSchema,
} from './v1/models.js';
export {
  type ConfiguredPackage,
  configuredPackageSchema,
  type PackageLevel,
  type PackageResource,
  packageLevelSchema,
  packageResourceSchema,
  type ResourceDiagnostic,
  resourceDiagnosticSchema,
} from './v1/packages.js';
export {
  type PromptSectionName,
  type PromptSectionReport,
  promptSectionNameSchema,
  promptSectionReportSchema,
} from './v1/prompt.js';
export {
  type CommandChange,
  commandChangeSchema,
  type RewindFile,
  type RewindResult,
  type RunChangeKind,
  type RunFileDiff,
  rewindFileSchema,
  rewindResultSchema,
  runFileDiffSchema,
  type SaveDiff,
  saveDiffSchema,
} from './v1/rewind.js';
export {
  RUN_IMAGE_MAX_BYTES,
  RUN_IMAGE_MIME_TYPES,
  RUN_IMAGES_MAX_INLINE_BYTES,
  type RunAttachment,
  type RunImage,
  type RunImageData,
  type RunImageFile,
  type RunImageView,
  type RunInput,
  type RunInputView,
  runAttachmentSchema,
  runImageSchema,
  runInputSchema,
} from './v1/run-input.js';
export {
  type AttachedSource,
  attachedSourceSchema,
  isTerminalRunStatus,
  type RunApprovalAnsweredEvent,
  type RunApprovalRequestEvent,
  type RunCompactionEvent,
  type RunContextSnapshotEvent,
  type RunDelivery,
  type RunEvent,
  type RunEventNotification,
  type RunFileChangeNoticeEvent,
  type RunFollowUpDeliveredEvent,
  type RunInfo,
  type RunOverrides,
  type RunPromptSectionsEvent,
  type RunRetryEvent,
  type RunSourcesAttachedEvent,
  type RunStatus,
  type RunStatusEvent,
  type RunSteerDeliveredEvent,
  type RunTextDeltaEvent,
  type RunToolEndEvent,
  type RunToolProgressEvent,
  type RunToolStartEvent,
  type RunUsage,
  runDeliverySchema,
  runEventNotificationSchema,
  runEventSchema,
  runInfoSchema,
  runOverridesSchema,
  runStatusSchema,
  runUsageSchema,
} from './v1/runs.js';
export {
  type HistoryItem,
  type HistoryToolCall,
  historyItemSchema,
  type SessionInfo,
  sessionInfoSchema,
} from './v1/sessions.js';
export type { SettingItem } from './v1/setting-item.js';
export {
  coerceSettingValue,
  MODEL_SETTING_ITEMS,
  PROMPT_SETTING_ITEMS,
  parseSettingValue,
  REPA_TOOL_NAMES,
  SETTING_ITEMS,
} from './v1/setting-items.js';
export {
  daemonIdleMinutesSchema,
  type EditsMode,
  editsModeSchema,
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
  type StudyMode,
  settingItemViewSchema,
  settingOverrideSchema,
  settingsLevelSchema,
  settingsScopeSchema,
  studyModeSchema,
  type ThinkingLevel,
  thinkingLevelSchema,
  type WritableSettingsLevel,
  writableSettingsLevelSchema,
} from './v1/settings.js';
export {
  type CitedPassage,
  citedLines,
  formatInterval,
  parseCite,
  RATING_LABELS,
  RATING_NAMES,
} from './v1/study-text.js';
export { toolCallTarget } from './v1/tool-target.js';
export {
  type RestrictedItem,
  type RestrictedKind,
  restrictedItemSchema,
  restrictedKindSchema,
  type TrustReason,
  trustReasonSchema,
} from './v1/trust.js';
export type {
  ContextBuildParams,
  ContextBuildResult,
  ContextCancelParams,
  ContextCancelResult,
  ContextGetParams,
  ContextGetResult,
  ContextProgressParams,
  ContextSetParams,
  ContextSetResult,
  DoctorParams,
  DoctorResult,
  InitializeParams,
  InitializeResult,
  LoginAnswerParams,
  LoginAnswerResult,
  LoginStartParams,
  LoginStartResult,
  ModelsListParams,
  ModelsListResult,
  RunCancelParams,
  RunCancelResult,
  RunGetParams,
  RunGetResult,
  RunListParams,
  RunListResult,
  RunResumeParams,
  RunResumeResult,
  RunRetryParams,
  RunRetryResult,
  RunSubmitParams,
  RunSubmitResult,
  RunSubscribeParams,
  RunSubscribeResult,
  SessionCreateParams,
  SessionCreateResult,
  SessionDeleteParams,
  SessionDeleteResult,
  SessionHistoryParams,
  SessionHistoryResult,
  SessionListParams,
  SessionListResult,
  SessionRenameParams,
  SessionRenameResult,
  SettingsGetParams,
  SettingsGetResult,
  SettingsResetParams,
  SettingsResetResult,
  SettingsSetResult,
  SpaceOpenParams,
  SpaceOpenResult,
  SpaceTrustParams,
  SpaceTrustResult,
  V1MethodTypes,
  V1NotificationTypes,
} from './v1/wire-types.generated.js';
