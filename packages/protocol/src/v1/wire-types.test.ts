import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { clean, emittedDocs } from '../test/emitted-docs.js';
import type { Holds, Same } from '../test/type-equality.js';
import { approvalRecordSchema } from './approvals.js';
import { citationSchema } from './citations.js';
import { fileChangeReportSchema, fileChangeSchema, saveReceiptSchema } from './content.js';
import { wireErrorSchema } from './errors/repa-error.js';
import { jsonRpcRequestSchema } from './json-rpc.js';
import { v1JsonSchemas } from './json-schema.js';
import { learningContextSchema, learningContextSourceStateSchema } from './learning-context.js';
import { materialSchema } from './methods/materials.js';
import { studyCardSchema, studyCardStateSchema, studyDueCardSchema } from './methods/study.js';
import { draftedCardSchema, droppedCardSchema } from './methods/study-drafts.js';
import { quizQuestionSchema } from './methods/study-quiz.js';
import {
  studyCalendarDaySchema,
  studyChangedQuestionSchema,
  studyGradeCountsSchema,
  studyProgressSchema,
} from './methods/study-status.js';
import { type V1Method, type V1Notification, v1Methods, v1Notifications } from './methods.js';
import { modelDecisionSchema, modelInfoSchema } from './models.js';
import {
  configuredPackageSchema,
  packageResourceSchema,
  resourceDiagnosticSchema,
} from './packages.js';
import { promptSectionReportSchema } from './prompt.js';
import {
  commandChangeSchema,
  rewindFileSchema,
  rewindResultSchema,
  runFileDiffSchema,
  saveDiffSchema,
} from './rewind.js';
import { runAttachmentSchema, type runImageSchema, runInputSchema } from './run-input.js';
import {
  attachedSourceSchema,
  runEventNotificationSchema,
  runEventSchema,
  runInfoSchema,
  runOverridesSchema,
  runUsageSchema,
} from './runs.js';
import { historyItemSchema, historyToolCallSchema, sessionInfoSchema } from './sessions.js';
import {
  modelSettingsSchema,
  promptSettingsSchema,
  settingItemViewSchema,
  settingOverrideSchema,
} from './settings.js';
import { restrictedItemSchema } from './trust.js';
import type * as Wire from './wire-types.generated.js';

type Variant<T extends Wire.RunEvent['type']> = Extract<
  z.infer<typeof runEventSchema>,
  { type: T }
>;

/** `true` when each method's params and result interfaces equal its schemas (else `boolean`). */
type MethodsEqual = {
  [M in V1Method]:
    | Same<Wire.V1MethodTypes[M]['params'], z.infer<(typeof v1Methods)[M]['params']>>
    | Same<Wire.V1MethodTypes[M]['result'], z.infer<(typeof v1Methods)[M]['result']>>;
}[V1Method];
/** `true` when each notification's params interface equals its schema (else `boolean`). */
type NotificationsEqual = {
  [N in V1Notification]: Same<Wire.V1NotificationTypes[N], z.infer<(typeof v1Notifications)[N]>>;
}[V1Notification];
/** `true` when `V1NotificationTypes` names exactly the notifications of `v1Notifications`. */
type NotificationsNamed = [keyof Wire.V1NotificationTypes] extends [V1Notification]
  ? [V1Notification] extends [keyof Wire.V1NotificationTypes]
    ? true
    : false
  : false;
/** `true` when `V1MethodTypes` names exactly the methods of `v1Methods`. */
type MethodsNamed = [keyof Wire.V1MethodTypes] extends [V1Method]
  ? [V1Method] extends [keyof Wire.V1MethodTypes]
    ? true
    : false
  : false;

// A hand-written interface that drifts from its schema turns one of these into `false`, and
// `tsc --build` fails on it.
export type InterfacesEqualSchemas = [
  Holds<Same<Wire.WireError, z.infer<typeof wireErrorSchema>>>,
  Holds<Same<Wire.JsonRpcRequest, z.infer<typeof jsonRpcRequestSchema>>>,
  Holds<Same<Wire.SaveReceipt, z.infer<typeof saveReceiptSchema>>>,
  Holds<Same<Wire.FileChange, z.infer<typeof fileChangeSchema>>>,
  Holds<Same<Wire.SaveDiff, z.infer<typeof saveDiffSchema>>>,
  Holds<Same<Wire.RunFileDiff, z.infer<typeof runFileDiffSchema>>>,
  Holds<Same<Wire.CommandChange, z.infer<typeof commandChangeSchema>>>,
  Holds<Same<Wire.RewindFile, z.infer<typeof rewindFileSchema>>>,
  Holds<Same<Wire.RewindResult, z.infer<typeof rewindResultSchema>>>,
  Holds<Same<Wire.FileChangeReport, z.infer<typeof fileChangeReportSchema>>>,
  Holds<Same<Wire.PromptSectionReport, z.infer<typeof promptSectionReportSchema>>>,
  Holds<Same<Wire.RestrictedItem, z.infer<typeof restrictedItemSchema>>>,
  Holds<Same<Wire.PromptSettings, z.infer<typeof promptSettingsSchema>>>,
  Holds<Same<Wire.ModelSettings, z.infer<typeof modelSettingsSchema>>>,
  Holds<Same<Wire.SettingItemView, z.infer<typeof settingItemViewSchema>>>,
  Holds<
    Same<Wire.SettingItemView['overrides'], z.infer<typeof settingItemViewSchema>['overrides']>
  >,
  Holds<
    Same<Wire.SettingItemView['revisions'], z.infer<typeof settingItemViewSchema>['revisions']>
  >,
  Holds<Same<Wire.ModelInfo, z.infer<typeof modelInfoSchema>>>,
  Holds<Same<Wire.ModelDecision, z.infer<typeof modelDecisionSchema>>>,
  Holds<Same<Wire.SessionInfo, z.infer<typeof sessionInfoSchema>>>,
  Holds<Same<Wire.MaterialInfo, z.infer<typeof materialSchema>>>,
  Holds<Same<Wire.HistoryItem, z.infer<typeof historyItemSchema>>>,
  Holds<Same<Wire.HistoryToolCall, z.infer<typeof historyToolCallSchema>>>,
  Holds<Same<Wire.RunInput, z.infer<typeof runInputSchema>>>,
  Holds<Same<Wire.RunOverrides, z.infer<typeof runOverridesSchema>>>,
  Holds<Same<Wire.RunUsage, z.infer<typeof runUsageSchema>>>,
  Holds<Same<Wire.RunInfo, z.infer<typeof runInfoSchema>>>,
  Holds<Same<Wire.RunEvent, z.infer<typeof runEventSchema>>>,
  Holds<Same<Wire.RunStatusEvent, Variant<'status'>>>,
  Holds<Same<Wire.RunTextDeltaEvent, Variant<'text-delta'>>>,
  Holds<Same<Wire.RunToolStartEvent, Variant<'tool-start'>>>,
  Holds<Same<Wire.RunToolEndEvent, Variant<'tool-end'>>>,
  Holds<Same<Wire.RunToolProgressEvent, Variant<'tool-progress'>>>,
  Holds<Same<Wire.RunContextSnapshotEvent, Variant<'context-snapshot'>>>,
  Holds<Same<Wire.RunFileChangeNoticeEvent, Variant<'file-change-notice'>>>,
  Holds<Same<Wire.RunCompactionEvent, Variant<'compaction'>>>,
  Holds<Same<Wire.RunRetryEvent, Variant<'retry'>>>,
  Holds<Same<Wire.RunPromptSectionsEvent, Variant<'prompt-sections'>>>,
  Holds<Same<Wire.RunSteerDeliveredEvent, Variant<'steer-delivered'>>>,
  Holds<Same<Wire.RunFollowUpDeliveredEvent, Variant<'follow-up-delivered'>>>,
  Holds<Same<Wire.RunSourcesAttachedEvent, Variant<'sources-attached'>>>,
  Holds<Same<Wire.RunInputView, z.infer<typeof runInfoSchema>['input']>>,
  Holds<Same<Wire.RunImage, z.infer<typeof runImageSchema>>>,
  Holds<Same<Wire.RunAttachment, z.infer<typeof runAttachmentSchema>>>,
  Holds<Same<Wire.AttachedSource, z.infer<typeof attachedSourceSchema>>>,
  Holds<Same<Wire.RunEventNotification, z.infer<typeof runEventNotificationSchema>>>,
  Holds<Same<Wire.LearningContext, z.infer<typeof learningContextSchema>>>,
  Holds<Same<Wire.LearningContextSourceState, z.infer<typeof learningContextSourceStateSchema>>>,
  Holds<MethodsEqual>,
  Holds<MethodsNamed>,
  Holds<NotificationsEqual>,
  Holds<NotificationsNamed>,
];

// biome-ignore lint/suspicious/noExplicitAny: any zod schema
type Schema = z.ZodType<any>;

/** Each wire interface with the schema it mirrors; unions map each `type` to its interface. */
const mirrored: [string | Record<string, string>, Schema][] = [
  ['WireError', wireErrorSchema],
  ['JsonRpcRequest', jsonRpcRequestSchema],
  ['Citation', citationSchema],
  ['SaveReceipt', saveReceiptSchema],
  ['FileChange', fileChangeSchema],
  ['SaveDiff', saveDiffSchema],
  ['RunFileDiff', runFileDiffSchema],
  ['CommandChange', commandChangeSchema],
  ['RewindFile', rewindFileSchema],
  ['RewindResult', rewindResultSchema],
  ['FileChangeReport', fileChangeReportSchema],
  ['PromptSectionReport', promptSectionReportSchema],
  ['RestrictedItem', restrictedItemSchema],
  ['PackageResource', packageResourceSchema],
  ['ResourceDiagnostic', resourceDiagnosticSchema],
  ['ConfiguredPackage', configuredPackageSchema],
  ['PromptSettings', promptSettingsSchema],
  ['ModelSettings', modelSettingsSchema],
  ['SettingItemView', settingItemViewSchema],
  ['SettingOverride', settingOverrideSchema],
  ['ModelInfo', modelInfoSchema],
  ['ModelDecision', modelDecisionSchema],
  ['SessionInfo', sessionInfoSchema],
  ['HistoryItem', historyItemSchema],
  ['HistoryToolCall', historyToolCallSchema],
  ['MaterialInfo', materialSchema],
  ['DraftedCard', draftedCardSchema],
  ['DroppedCard', droppedCardSchema],
  ['QuizQuestion', quizQuestionSchema],
  ['StudyCard', studyCardSchema],
  ['StudyCardState', studyCardStateSchema],
  ['StudyDueCard', studyDueCardSchema],
  ['StudyGradeCounts', studyGradeCountsSchema],
  ['StudyProgress', studyProgressSchema],
  ['StudyChangedQuestion', studyChangedQuestionSchema],
  ['StudyCalendarDay', studyCalendarDaySchema],
  [{ text: 'RunInput' }, runInputSchema],
  ['RunAttachment', runAttachmentSchema],
  ['AttachedSource', attachedSourceSchema],
  ['RunOverrides', runOverridesSchema],
  ['RunUsage', runUsageSchema],
  ['ApprovalRecord', approvalRecordSchema],
  ['RunInfo', runInfoSchema],
  [
    {
      status: 'RunStatusEvent',
      'text-delta': 'RunTextDeltaEvent',
      'tool-start': 'RunToolStartEvent',
      'tool-end': 'RunToolEndEvent',
      'tool-progress': 'RunToolProgressEvent',
      'context-snapshot': 'RunContextSnapshotEvent',
      'file-change-notice': 'RunFileChangeNoticeEvent',
      compaction: 'RunCompactionEvent',
      retry: 'RunRetryEvent',
      'prompt-sections': 'RunPromptSectionsEvent',
      'steer-delivered': 'RunSteerDeliveredEvent',
      'follow-up-delivered': 'RunFollowUpDeliveredEvent',
      'sources-attached': 'RunSourcesAttachedEvent',
      'approval-request': 'RunApprovalRequestEvent',
      'approval-answered': 'RunApprovalAnsweredEvent',
    },
    runEventSchema,
  ],
  ['RunEventNotification', runEventNotificationSchema],
  ['LearningContext', learningContextSchema],
  ['LearningContextSourceState', learningContextSourceStateSchema],
  ['ContextProgressParams', v1Notifications['context.progress']],
  ['LoginProgress', v1Notifications['login.progress']],
  // Each method's `<Method>Params` / `<Method>Result` (`run.submit` → `RunSubmitParams`).
  ...Object.entries(v1Methods).flatMap(([method, { params, result }]) => {
    const name = method
      .split('.')
      .map((part) => part[0]?.toUpperCase() + part.slice(1))
      .join('');
    return [
      [`${name}Params`, params],
      [`${name}Result`, result],
    ] as [string, Schema][];
  }),
];

/** `Interface.member[.member]` → description, for every described member of a mirrored schema. */
function schemaDescriptions(): Map<string, string> {
  const found = new Map<string, string>();
  const shapeOf = (schema: Schema) =>
    (schema as unknown as { shape?: Record<string, Schema> }).shape;
  // A member typed by another mirrored interface is checked there; inline objects are walked.
  // (`.describe()` clones a schema but keeps its definition object.)
  const named = new Set(mirrored.map(([, schema]) => schema._zod.def));
  // Through `.optional()`, `.nullable()` and arrays to the object they hold.
  const unwrap = (schema: Schema): Schema => {
    const def = schema._zod.def as unknown as {
      type: string;
      innerType?: Schema;
      element?: Schema;
    };
    if (def.type === 'optional' || def.type === 'nullable') return unwrap(def.innerType as Schema);
    if (def.type === 'array') return unwrap(def.element as Schema);
    return schema;
  };
  const walk = (schema: Schema, prefix: string): void => {
    for (const [key, member] of Object.entries(shapeOf(schema) ?? {})) {
      if (member.description !== undefined) found.set(`${prefix}.${key}`, member.description);
      const inner = unwrap(member);
      if (shapeOf(inner) && !named.has(inner._zod.def)) walk(inner, `${prefix}.${key}`);
    }
  };
  for (const [name, schema] of mirrored) {
    if (typeof name === 'string') {
      // A union mirrored by one interface (`settings.set` params, one option per key): every option.
      const options = (schema as unknown as { options?: Schema[] }).options ?? [schema];
      for (const option of options) walk(option, name);
      continue;
    }
    for (const option of (schema as unknown as { options: Schema[] }).options) {
      const type = (option as unknown as { shape: { type: { value: string } } }).shape.type.value;
      walk(option, name[type] ?? `unmapped ${type}`);
    }
  }
  return found;
}

/** The interface of each `$defs` shape of schema/v1.json (RunStatus is a plain string union). */
const defInterfaces: Record<string, string[]> = {
  CommandChange: ['CommandChange'],
  ConfiguredPackage: ['ConfiguredPackage'],
  DraftedCard: ['DraftedCard'],
  DroppedCard: ['DroppedCard'],
  QuizQuestion: ['QuizQuestion'],
  Error: ['WireError'],
  FileChange: ['FileChange'],
  HistoryItem: ['HistoryItem'],
  HistoryToolCall: ['HistoryToolCall'],
  Material: ['MaterialInfo'],
  PromptSection: ['PromptSectionReport'],
  PromptSettings: ['PromptSettings'],
  PackageResource: ['PackageResource'],
  ResourceDiagnostic: ['ResourceDiagnostic'],
  RestrictedItem: ['RestrictedItem'],
  Run: ['RunInfo'],
  RunEvent: [
    'RunStatusEvent',
    'RunTextDeltaEvent',
    'RunToolStartEvent',
    'RunToolEndEvent',
    'RunToolProgressEvent',
    'RunContextSnapshotEvent',
    'RunFileChangeNoticeEvent',
    'RunCompactionEvent',
    'RunRetryEvent',
    'RunPromptSectionsEvent',
    'RunSteerDeliveredEvent',
    'RunFollowUpDeliveredEvent',
    'RunSourcesAttachedEvent',
    'RunApprovalRequestEvent',
    'RunApprovalAnsweredEvent',
  ],
  ApprovalRecord: ['ApprovalRecord'],
  RewindFile: ['RewindFile'],
  RewindResult: ['RewindResult'],
  RunFileDiff: ['RunFileDiff'],
  RunInput: ['RunInputView'],
  Citation: ['Citation'],
  SaveDiff: ['SaveDiff'],
  SaveReceipt: ['SaveReceipt'],
  Session: ['SessionInfo'],
  SettingItemView: ['SettingItemView'],
  StudyCard: ['StudyCard'],
  StudyCardState: ['StudyCardState'],
  StudyDueCard: ['StudyDueCard'],
  StudyProgress: ['StudyProgress'],
  StudyGradeCounts: ['StudyGradeCounts'],
  StudyChangedQuestion: ['StudyChangedQuestion'],
  StudyCalendarDay: ['StudyCalendarDay'],
};

describe('wire interfaces', () => {
  it('exist with TSDoc for every object shape of `$defs` in the emitted declarations', () => {
    const shapes = Object.entries(v1JsonSchemas().$defs)
      .filter(([, schema]) => schema.enum === undefined)
      .map(([name]) => name);
    expect(shapes.filter((name) => defInterfaces[name] === undefined)).toEqual([]);
    const documented = new Set([...emittedDocs().keys()].map((path) => path.split('.')[0]));
    const undocumented = shapes.flatMap((name) =>
      (defInterfaces[name] ?? []).filter((type) => !documented.has(type)),
    );
    expect(undocumented).toEqual([]);
  }, 60_000);

  it('carry every member description of their schema as TSDoc in the emitted declarations', () => {
    const expected = schemaDescriptions();
    expect(expected.size).toBeGreaterThan(100);
    const docs = emittedDocs();
    const missing = [...expected]
      .filter(([path, description]) => docs.get(path) !== clean(description))
      .map(([path, description]) => ({ path, description, emitted: docs.get(path) }));
    expect(missing).toEqual([]);
  }, 60_000);
});
