// The main entry is browser-safe: no Node built-in anywhere in its import graph (tested by
// index.browser.test.ts). Node-only code is exported from `@repa/protocol/node`.
export {
  createRepaClient,
  type RepaClient,
  type RepaClientMethod,
  type RepaClientOptions,
} from './client/create-repa-client.js';
export type { RepaTransport, RepaTransportFactory } from './client/repa-transport.js';
export { type RunFollower, type RunUpdate, runToEnd } from './client/run-follower.js';
export { webSocketTransport } from './client/web-socket-transport.js';
export { OFFLINE_MODEL_ID, OFFLINE_MODEL_LABEL } from './daemon/daemon-output.js';
export type { ApprovalAnswer, ApprovalDecision, ApprovalRecord } from './v1/approvals.js';
export { type CitationLocation, parseCitationLocation } from './v1/citation-location.js';
export {
  type Citation,
  type CitationStatus,
  citationFootnotes,
  citationPlace,
} from './v1/citations.js';
export { PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from './v1/common.js';
export type { FileChange, FileChangeReport, SaveReceipt } from './v1/content.js';
export {
  REPA_ERROR_CODES,
  RepaError,
  type RepaErrorCode,
  type RepaErrorOptions,
  type WireError,
} from './v1/errors/repa-error.js';
export {
  parseToolErrorText,
  toolErrorMessage,
  toolErrorText,
} from './v1/errors/tool-error-text.js';
export { foldedText } from './v1/folded-text.js';
export type { LearningContext, LearningContextSourceState } from './v1/learning-context.js';
export type { LoginProgress, LoginType } from './v1/login.js';
export type { MaterialInfo } from './v1/methods/materials.js';
export type { StudyCard, StudyCardState, StudyDueCard } from './v1/methods/study.js';
export type { DraftedCard, DroppedCard, DroppedCardReason } from './v1/methods/study-drafts.js';
export type { QuizQuestion } from './v1/methods/study-quiz.js';
export {
  STUDY_CALENDAR_DAYS,
  type StudyCalendarDay,
  type StudyChangedQuestion,
  type StudyGradeCounts,
  type StudyProgress,
} from './v1/methods/study-status.js';
export type {
  V1Method,
  V1Notification,
  V1NotificationParams,
  V1Params,
  V1Result,
} from './v1/methods.js';
export {
  type CredentialSource,
  MODEL_SOURCE_WORDS,
  type ModelDecision,
  type ModelInfo,
  type ModelSource,
} from './v1/models.js';
export type {
  ConfiguredPackage,
  PackageLevel,
  PackageResource,
  ResourceDiagnostic,
} from './v1/packages.js';
export { type PdfPageText, pdfPageText } from './v1/pdf-page-text.js';
export type { PromptSectionName, PromptSectionReport } from './v1/prompt.js';
export type {
  CommandChange,
  RewindFile,
  RewindResult,
  RunChangeKind,
  RunFileDiff,
  SaveDiff,
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
} from './v1/run-input.js';
export {
  type AttachedSource,
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
} from './v1/runs.js';
export type { HistoryItem, HistoryToolCall, SessionInfo } from './v1/sessions.js';
export type { SettingItem } from './v1/setting-item.js';
export {
  coerceSettingValue,
  MODEL_SETTING_ITEMS,
  PROMPT_SETTING_ITEMS,
  REPA_TOOL_NAMES,
  SETTING_ITEMS,
} from './v1/setting-items.js';
export type {
  EditsMode,
  FileChangesMode,
  ModelSettings,
  ModelSettingsSources,
  PromptSettings,
  PromptSettingsSources,
  SettingItemView,
  SettingsLevel,
  StudyMode,
  ThinkingLevel,
  WritableSettingsLevel,
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
export type { RestrictedItem, RestrictedKind, TrustReason } from './v1/trust.js';
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
