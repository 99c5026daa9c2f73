import {
  type ApprovalRecord,
  citationFootnotes,
  OFFLINE_MODEL_ID,
  type RunInfo,
} from '@repa/protocol';
import { describeRunModel, describeThinking } from '../../describe-model.js';
import { relativeTime, shortId } from '../../format-table.js';
import {
  describeUsage,
  summarizePromptSections,
  UNTRUSTED_HINT,
  withheldUntrusted,
} from '../../run-summary-lines.js';
import { restrictedPaths } from '../trust-commands.js';

/**
 * A run as a table row; on a terminal with short ids (`short`: the unique prefix of each run and
 * session id) and a relative local time, piped in full.
 */
export function runRow(
  run: RunInfo,
  terminal: boolean,
  withSpace: boolean,
  short: ReadonlyMap<string, string> = new Map(),
): string[] {
  const text = run.input.type === 'text' ? run.input.text.replace(/\s+/g, ' ') : '';
  const id = (value: string) => (terminal ? (short.get(value) ?? shortId(value)) : value);
  return [
    id(run.runId),
    run.queuePosition
      ? `queued #${run.queuePosition}`
      : run.targetRunId
        ? `${run.status} (${run.delivery} → ${id(run.targetRunId)})`
        : run.rewound
          ? `${run.status} (rewound)`
          : run.status,
    ...(withSpace ? [run.space] : []),
    id(run.sessionId),
    terminal ? relativeTime(run.acceptedAt) : run.acceptedAt,
    terminal ? text : text.length > 50 ? `${text.slice(0, 49)}…` : text,
  ];
}

/** What `tools.edits` other than `auto` meant for the run. */
const EDITS = {
  ask: 'ask: each save and command waited for the learner',
  off: 'off: read-only (no write, edit or apply_patch; commands saw the space read-only)',
} as const;

/** One approval request and its answer, on a line. */
function describeApproval(approval: ApprovalRecord): string {
  const what =
    approval.command !== undefined
      ? `bash: ${approval.command}`
      : `${approval.toolName} ${approval.targets?.join(', ') ?? ''}`;
  const answer =
    approval.decision === undefined
      ? 'not answered'
      : approval.covered
        ? `${approval.decision} (covered by yes to all)`
        : approval.forRun
          ? `${approval.decision} (yes to all)`
          : approval.decision;
  return `${answer}: ${what}${approval.reason ? ` (${approval.reason})` : ''}`;
}

/** A run's record as `repa runs show` prints it. */
export function describeRun(run: RunInfo): string {
  const lines = [
    `run        ${run.runId}`,
    `status     ${run.status}`,
    `request    ${run.requestId}`,
    `space      ${run.space}`,
    `session    ${run.sessionId}`,
    `attempt    ${run.attempt}${run.retryOf ? ` (retry of ${run.retryOf})` : ''}${run.resumeOf ? ` (resumes ${run.resumeOf})` : ''}`,
    ...(run.queuePosition ? [`queue      position ${run.queuePosition}`] : []),
    ...(run.targetRunId ? [`delivered  ${run.delivery} into run ${run.targetRunId}`] : []),
    `accepted   ${run.acceptedAt}`,
    ...(run.startedAt ? [`started    ${run.startedAt}`] : []),
    ...(run.endedAt ? [`ended      ${run.endedAt}`] : []),
    `input      ${run.input.type === 'text' ? run.input.text : run.input.type}`,
    ...(run.input.images?.length
      ? [
          `images     ${run.input.images.map((image) => image.path ?? `${image.mimeType} (${image.bytes} bytes)`).join(', ')}`,
        ]
      : []),
    ...(run.attachedSources?.length
      ? [
          `attached   ${run.attachedSources.map((source) => `${source.path} (${source.version.slice(0, 12)})`).join(', ')}`,
        ]
      : run.input.attachments?.length
        ? [`attached   ${run.input.attachments.map((item) => item.path).join(', ')}`]
        : []),
    `settings   ${Object.entries(run.promptSettings)
      .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
      .join(' ')}`,
    `revisions  ${Object.entries(run.settingsRevisions)
      .map(([level, revision]) => `${level} ${revision}`)
      .join(', ')}`,
    ...(run.modelSettings
      ? [
          run.modelSource
            ? `model      ${describeRunModel({ model: run.model, modelSource: run.modelSource })}`
            : `model      ${run.model ?? run.modelSettings.model ?? "Pi's default"}${run.modelSettingsSources?.model === 'run' ? ' (this run only)' : ''}`,
          ...(run.connection ? [`connection ${run.connection}`] : []),
          `thinking   ${describeThinking(run) ?? "Pi's default"}${run.modelSettingsSources?.thinkingLevel === 'run' ? ' (this run only)' : ''}`,
          `tools      ${run.modelSettings.tools?.join(', ') ?? 'every content and search tool'}`,
          ...(run.modelSettings.edits && run.modelSettings.edits !== 'auto'
            ? [
                `edits      ${EDITS[run.modelSettings.edits]}${run.modelSettingsSources?.edits === 'run' ? ' (this run only)' : ''}`,
              ]
            : []),
          ...(run.modelSettings.studyMode === 'tutor'
            ? [
                `study      tutor mode: no saving tool or bash, asks back and hints first${run.modelSettingsSources?.studyMode === 'run' ? ' (this run only)' : ''}`,
              ]
            : []),
        ]
      : []),
    ...(run.promptSections ? [`prompt     ${summarizePromptSections(run.promptSections)}`] : []),
    ...(run.promptSections?.some(withheldUntrusted)
      ? [
          `trust      ${UNTRUSTED_HINT.replace('repa trust (in the space, or --space DIR)', `repa trust --space ${run.space}`)}`,
        ]
      : []),
    ...(run.restricted?.length
      ? [
          `restricted ${restrictedPaths(run.restricted).join(', ')} (left out: the space is not trusted; repa trust --space ${run.space})`,
        ]
      : []),
    ...(run.usage
      ? [`usage      ${describeUsage(run.usage)}`]
      : run.model === OFFLINE_MODEL_ID && run.endedAt
        ? ['usage      none: the local responder answered (no provider, no tokens)']
        : []),
    ...(run.error
      ? [`error      ${run.error.message} (${run.error.code})`, `fix        ${run.error.fix}`]
      : []),
    ...(run.approvals?.length
      ? ['approvals', ...run.approvals.map((approval) => `  ${describeApproval(approval)}`)]
      : []),
    ...(run.output !== undefined ? ['output', ...run.output.split('\n').map((l) => `  ${l}`)] : []),
    ...(run.citations?.length
      ? ['citations', ...citationFootnotes(run.citations).map((line) => `  ${line}`)]
      : []),
  ];
  return `${lines.join('\n')}\n`;
}
