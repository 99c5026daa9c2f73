// `@repa/protocol/schemas`: the zod schemas of protocol v1, the method and notification tables
// and the JSON Schemas made from them: what a server or a validating client needs. Types, the
// client and `RepaError` are the main entry's.
export { tcpAuthParamsSchema } from './client/tcp-auth.js';
export { webOpenParamsSchema } from './client/web-open.js';
export { approvalRecordSchema } from './v1/approvals.js';
export { citationSchema, citationStatusSchema } from './v1/citations.js';
export { idSchema, spaceRootSchema, timestampSchema, versionSchema } from './v1/common.js';
export { fileChangeReportSchema, fileChangeSchema, saveReceiptSchema } from './v1/content.js';
export { wireErrorSchema } from './v1/errors/repa-error.js';
export {
  invalidRequestFromZod,
  jsonRpcErrorSchema,
  jsonRpcRequestSchema,
  jsonRpcResponseSchema,
} from './v1/json-rpc.js';
export { type V1JsonSchemas, v1JsonSchemas } from './v1/json-schema.js';
export { learningContextSchema, learningContextSourceStateSchema } from './v1/learning-context.js';
export { loginProgressSchema, loginTypeSchema } from './v1/login.js';
export { materialSchema } from './v1/methods/materials.js';
export { v1Methods, v1Notifications } from './v1/methods.js';
export {
  credentialSourceSchema,
  modelDecisionSchema,
  modelInfoSchema,
  modelSourceSchema,
} from './v1/models.js';
export {
  configuredPackageSchema,
  packageLevelSchema,
  packageResourceSchema,
  resourceDiagnosticSchema,
} from './v1/packages.js';
export { promptSectionNameSchema, promptSectionReportSchema } from './v1/prompt.js';
export {
  commandChangeSchema,
  rewindFileSchema,
  rewindResultSchema,
  runFileDiffSchema,
  saveDiffSchema,
} from './v1/rewind.js';
export { runAttachmentSchema, runImageSchema, runInputSchema } from './v1/run-input.js';
export {
  attachedSourceSchema,
  runDeliverySchema,
  runEventNotificationSchema,
  runEventSchema,
  runInfoSchema,
  runOverridesSchema,
  runStatusSchema,
  runUsageSchema,
} from './v1/runs.js';
export { historyItemSchema, sessionInfoSchema } from './v1/sessions.js';
export {
  daemonIdleMinutesSchema,
  editsModeSchema,
  fileChangesModeSchema,
  modelSettingsSchema,
  modelSettingsSourcesSchema,
  promptSettingsSchema,
  promptSettingsSourcesSchema,
  settingItemViewSchema,
  settingOverrideSchema,
  settingsLevelSchema,
  settingsScopeSchema,
  studyModeSchema,
  thinkingLevelSchema,
  writableSettingsLevelSchema,
} from './v1/settings.js';
export { restrictedItemSchema, restrictedKindSchema, trustReasonSchema } from './v1/trust.js';
