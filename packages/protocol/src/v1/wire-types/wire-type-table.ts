// The TypeScript names of the wire schemas, for render-wire-types.ts. Member docs come from each
// schema's `.describe()`; a type's own doc from its entry here, else from its schema's description.
// A member typed by a schema named here is typed by that name; every other schema is written out.
import type { z } from 'zod';
import {
  approvalAnswerSchema,
  approvalDecisionSchema,
  approvalRecordSchema,
} from '../approvals.js';
import { citationSchema, citationStatusSchema } from '../citations.js';
import { fileChangeReportSchema, fileChangeSchema, saveReceiptSchema } from '../content.js';
import { wireErrorSchema } from '../errors/repa-error.js';
import { jsonRpcRequestSchema } from '../json-rpc.js';
import { learningContextSchema, learningContextSourceStateSchema } from '../learning-context.js';
import { loginProgressSchema, loginTypeSchema } from '../login.js';
import { contextProgressSchema } from '../methods/context.js';
import { materialSchema } from '../methods/materials.js';
import { sessionRunNotificationSchema } from '../methods/session.js';
import {
  settingsResetParamsSchema,
  settingsResetParamsView,
  settingsSetParamsSchema,
  settingsSetParamsView,
} from '../methods/settings.js';
import { studyCardSchema, studyCardStateSchema, studyDueCardSchema } from '../methods/study.js';
import {
  draftedCardSchema,
  droppedCardReasonSchema,
  droppedCardSchema,
} from '../methods/study-drafts.js';
import { quizQuestionSchema } from '../methods/study-quiz.js';
import {
  studyCalendarDaySchema,
  studyChangedQuestionSchema,
  studyGradeCountsSchema,
  studyProgressSchema,
} from '../methods/study-status.js';
import {
  credentialSourceSchema,
  modelDecisionSchema,
  modelInfoSchema,
  modelSourceSchema,
} from '../models.js';
import {
  configuredPackageSchema,
  packageLevelSchema,
  packageResourceSchema,
  resourceDiagnosticSchema,
} from '../packages.js';
import { promptSectionNameSchema, promptSectionReportSchema } from '../prompt.js';
import {
  commandChangeSchema,
  rewindFileSchema,
  rewindResultSchema,
  runChangeKindSchema,
  runFileDiffSchema,
  saveDiffSchema,
} from '../rewind.js';
import {
  runAttachmentSchema,
  runImageSchema,
  runImageViewSchema,
  runInputSchema,
  runInputViewSchema,
} from '../run-input.js';
import {
  attachedSourceSchema,
  runDeliverySchema,
  runEventNotificationSchema,
  runEventSchema,
  runInfoSchema,
  runOverridesSchema,
  runStatusSchema,
  runUsageSchema,
} from '../runs.js';
import { historyItemSchema, historyToolCallSchema, sessionInfoSchema } from '../sessions.js';
import {
  bashModeSchema,
  editsModeSchema,
  fileChangesModeSchema,
  modelSettingsSchema,
  modelSettingsSourcesSchema,
  promptSettingsSchema,
  promptSettingsSourcesSchema,
  settingItemViewSchema,
  settingOverrideSchema,
  settingsLevelSchema,
  studyModeSchema,
  thinkingLevelSchema,
  writableSettingsLevelSchema,
} from '../settings.js';
import { restrictedItemSchema, restrictedKindSchema, trustReasonSchema } from '../trust.js';

/** A generated interface (or union type) and the schema it is the `z.infer` of. */
export interface WireType {
  /** Its TypeScript name. */
  name: string;
  /** The schema; members typed by another entry's schema refer to that entry by name. */
  schema: z.ZodType;
  /** Its TSDoc; default: the schema's description. */
  doc?: string;
  /** Rendered from this schema instead (`settings.set` params: any key, any value). */
  view?: z.ZodType;
}

/** The option of a discriminated union whose `key` member is the literal `value`. */
function variant(union: z.ZodType, key: string, value: string): z.ZodType {
  const options = (union as unknown as { options: z.ZodObject[] }).options;
  const found = options.find((option) => {
    const literal = option.shape[key] as unknown as { value?: unknown } | undefined;
    return literal?.value === value;
  });
  if (!found) throw new Error(`No option with ${key} '${value}'.`);
  return found;
}

const event = (type: string) => variant(runEventSchema, 'type', type);

/** Every named wire type, in the order of the generated file. */
export const WIRE_TYPES: readonly WireType[] = [
  { name: 'SettingsLevel', schema: settingsLevelSchema, doc: 'A settings inheritance level.' },
  {
    name: 'WritableSettingsLevel',
    schema: writableSettingsLevelSchema,
    doc: 'A settings level a client may write.',
  },
  { name: 'FileChangesMode', schema: fileChangesModeSchema, doc: 'A `prompts.fileChanges` mode.' },
  { name: 'ThinkingLevel', schema: thinkingLevelSchema, doc: 'A Pi thinking level.' },
  { name: 'BashMode', schema: bashModeSchema, doc: 'A `tools.bash` mode.' },
  { name: 'EditsMode', schema: editsModeSchema, doc: 'A `tools.edits` mode.' },
  { name: 'StudyMode', schema: studyModeSchema, doc: 'A `study.mode`.' },
  {
    name: 'CredentialSource',
    schema: credentialSourceSchema,
    doc: "Where Pi finds a provider's credentials.",
  },
  { name: 'ModelSource', schema: modelSourceSchema, doc: 'Why a run uses its model.' },
  {
    name: 'RestrictedKind',
    schema: restrictedKindSchema,
    doc: 'What kind of thing of a space has no effect until the space is trusted.',
  },
  { name: 'TrustReason', schema: trustReasonSchema, doc: 'Why a space is trusted.' },
  { name: 'RunStatus', schema: runStatusSchema, doc: "A run's status." },
  { name: 'RunDelivery', schema: runDeliverySchema, doc: 'How a request reaches the session.' },
  {
    name: 'PromptSectionName',
    schema: promptSectionNameSchema,
    doc: "A named section of Repa's system prompt.",
  },
  { name: 'LoginType', schema: loginTypeSchema, doc: 'How `login.start` signs in.' },
  { name: 'PackageLevel', schema: packageLevelSchema, doc: 'Where a Pi package is configured.' },
  { name: 'WireError', schema: wireErrorSchema, doc: 'The wire shape of a Repa error.' },
  {
    name: 'JsonRpcRequest',
    schema: jsonRpcRequestSchema,
    doc: 'A JSON-RPC 2.0 request or notification.',
  },
  { name: 'CitationStatus', schema: citationStatusSchema, doc: 'What checking a citation found.' },
  { name: 'Citation', schema: citationSchema },
  { name: 'SaveReceipt', schema: saveReceiptSchema },
  { name: 'FileChange', schema: fileChangeSchema },
  { name: 'SaveDiff', schema: saveDiffSchema },
  { name: 'ApprovalAnswer', schema: approvalAnswerSchema },
  { name: 'ApprovalDecision', schema: approvalDecisionSchema },
  { name: 'ApprovalRecord', schema: approvalRecordSchema },
  { name: 'RunChangeKind', schema: runChangeKindSchema, doc: 'What a run did to a file.' },
  { name: 'RunFileDiff', schema: runFileDiffSchema },
  { name: 'CommandChange', schema: commandChangeSchema },
  { name: 'RewindFile', schema: rewindFileSchema },
  { name: 'RewindResult', schema: rewindResultSchema },
  {
    name: 'DroppedCardReason',
    schema: droppedCardReasonSchema,
    doc: 'Why a drafted card was dropped.',
  },
  { name: 'DraftedCard', schema: draftedCardSchema },
  { name: 'DroppedCard', schema: droppedCardSchema },
  { name: 'QuizQuestion', schema: quizQuestionSchema },
  {
    name: 'FileChangeReport',
    schema: fileChangeReportSchema,
    doc: 'The changes found before one model request.',
  },
  { name: 'PromptSectionReport', schema: promptSectionReportSchema },
  { name: 'RestrictedItem', schema: restrictedItemSchema },
  { name: 'PackageResource', schema: packageResourceSchema },
  { name: 'ResourceDiagnostic', schema: resourceDiagnosticSchema },
  { name: 'ConfiguredPackage', schema: configuredPackageSchema },
  { name: 'PromptSettings', schema: promptSettingsSchema },
  {
    name: 'PromptSettingsSources',
    schema: promptSettingsSourcesSchema,
    doc: 'The level each effective `prompts.*` setting of a run came from.',
  },
  {
    name: 'ModelSettings',
    schema: modelSettingsSchema,
    doc: 'The model settings decided for one run.',
  },
  {
    name: 'ModelSettingsSources',
    schema: modelSettingsSourcesSchema,
    doc: 'Where each model setting of a run came from.',
  },
  {
    name: 'SettingOverride',
    schema: settingOverrideSchema,
    doc: "One level's override of one item.",
  },
  { name: 'SettingItemView', schema: settingItemViewSchema },
  {
    name: 'SettingsSetParams',
    schema: settingsSetParamsSchema,
    view: settingsSetParamsView,
    doc: '`settings.set` params (in TypeScript: any key, any value; the schema checks them per key).',
  },
  {
    name: 'SettingsResetParams',
    schema: settingsResetParamsSchema,
    view: settingsResetParamsView,
    doc: '`settings.reset` params (in TypeScript: any key; the schema checks it).',
  },
  { name: 'ModelInfo', schema: modelInfoSchema, doc: 'One model Pi knows.' },
  {
    name: 'ModelDecision',
    schema: modelDecisionSchema,
    doc: 'The model and thinking level a run uses, and why.',
  },
  { name: 'SessionInfo', schema: sessionInfoSchema },
  { name: 'MaterialInfo', schema: materialSchema },
  { name: 'StudyCardState', schema: studyCardStateSchema },
  { name: 'StudyCard', schema: studyCardSchema },
  { name: 'StudyDueCard', schema: studyDueCardSchema },
  { name: 'StudyGradeCounts', schema: studyGradeCountsSchema },
  { name: 'StudyProgress', schema: studyProgressSchema },
  { name: 'StudyChangedQuestion', schema: studyChangedQuestionSchema },
  { name: 'StudyCalendarDay', schema: studyCalendarDaySchema },
  { name: 'HistoryToolCall', schema: historyToolCallSchema },
  { name: 'HistoryItem', schema: historyItemSchema },
  {
    name: 'LearningContextSourceState',
    schema: learningContextSourceStateSchema,
    doc: 'One source of a learning context with its state.',
  },
  { name: 'LearningContext', schema: learningContextSchema, doc: "A space's learning context." },
  {
    name: 'LoginProgress',
    schema: loginProgressSchema,
    doc: 'One step of a login as Pi reports it.',
  },
  {
    name: 'ContextProgressParams',
    schema: contextProgressSchema,
    doc: '`context.progress` params: one step of a `context.build`.',
  },
  {
    name: 'RunImageData',
    schema: variant(runImageSchema, 'kind', 'data'),
    doc: 'An image given inline.',
  },
  {
    name: 'RunImageFile',
    schema: variant(runImageSchema, 'kind', 'file'),
    doc: 'An image file of the space.',
  },
  {
    name: 'RunImage',
    schema: runImageSchema,
    doc: "One image of a run's input: inline base64 bytes, or an image file of the space.",
  },
  {
    name: 'RunAttachment',
    schema: runAttachmentSchema,
    doc: 'A document of the space the user points the run at.',
  },
  { name: 'RunInput', schema: runInputSchema, doc: "A run's input." },
  {
    name: 'AttachedSource',
    schema: attachedSourceSchema,
    doc: 'A document attached to a run, as the run read it.',
  },
  {
    name: 'RunOverrides',
    schema: runOverridesSchema,
    doc: 'One-run overrides of the model settings.',
  },
  {
    name: 'RunUsage',
    schema: runUsageSchema,
    doc: 'Token usage and cost of one run, as the provider reported it.',
  },
  {
    name: 'RunImageView',
    schema: runImageViewSchema,
    doc: "One image of a run's input as run records show it.",
  },
  {
    name: 'RunInputView',
    schema: runInputViewSchema,
    doc: "A run's input as run records show it (inline image bytes left out).",
  },
  { name: 'RunInfo', schema: runInfoSchema },
  { name: 'RunStatusEvent', schema: event('status'), doc: "A run's status changed." },
  { name: 'RunTextDeltaEvent', schema: event('text-delta'), doc: 'Assistant text streamed.' },
  { name: 'RunToolStartEvent', schema: event('tool-start'), doc: 'A tool call started.' },
  { name: 'RunToolEndEvent', schema: event('tool-end'), doc: 'A tool call ended.' },
  {
    name: 'RunToolProgressEvent',
    schema: event('tool-progress'),
    doc: 'A long tool call (a first read of a long or scanned document) tells its pages done.',
  },
  {
    name: 'RunApprovalRequestEvent',
    schema: event('approval-request'),
    doc: 'A save or command waits for the learner (`tools.edits` `ask`).',
  },
  {
    name: 'RunApprovalAnsweredEvent',
    schema: event('approval-answered'),
    doc: 'An approval request was answered.',
  },
  {
    name: 'RunContextSnapshotEvent',
    schema: event('context-snapshot'),
    doc: 'The learning context was given to the model.',
  },
  {
    name: 'RunFileChangeNoticeEvent',
    schema: event('file-change-notice'),
    doc: 'The model was told about file changes.',
  },
  {
    name: 'RunCompactionEvent',
    schema: event('compaction'),
    doc: "Pi compacted the session's context.",
  },
  { name: 'RunRetryEvent', schema: event('retry'), doc: 'Pi retries a failed model call.' },
  {
    name: 'RunSteerDeliveredEvent',
    schema: event('steer-delivered'),
    doc: 'A `steer` request reached the model at a turn boundary of this run.',
  },
  {
    name: 'RunFollowUpDeliveredEvent',
    schema: event('follow-up-delivered'),
    doc: "A `followUp` request reached the model after this run's earlier work.",
  },
  {
    name: 'RunSourcesAttachedEvent',
    schema: event('sources-attached'),
    doc: "The run's attached documents were read and given to the model.",
  },
  {
    name: 'RunPromptSectionsEvent',
    schema: event('prompt-sections'),
    doc: 'What the model was told, section by section.',
  },
  { name: 'RunEvent', schema: runEventSchema },
  {
    name: 'RunEventNotification',
    schema: runEventNotificationSchema,
    doc: "The `run.event` notification's params.",
  },
  {
    name: 'SessionRunNotification',
    schema: sessionRunNotificationSchema,
    doc: "The `session.run` notification's params: a run of a session this connection follows (`session.subscribe`) was accepted or moved in the queue; its `run.event` notifications follow.",
  },
];
