import { z } from 'zod';
import { timestampSchema } from './common.js';
import { saveDiffSchema } from './rewind.js';

/** How the learner answers an approval request (`run.approve`). */
export const approvalAnswerSchema = z.enum(['approve', 'approve-run', 'refuse']).meta({
  id: 'ApprovalAnswer',
  description:
    'How the learner answers an approval request: `approve` this save or command, `approve-run` this one and every later one of the run without asking, `refuse` it (nothing is written or run; the model is told, with the reason).',
});

/** What became of an approval request. */
export const approvalDecisionSchema = z.enum(['approved', 'refused']).meta({
  id: 'ApprovalDecision',
  description: 'What became of an approval request: `approved` or `refused`.',
});

/** What a save or command waiting for the learner is (`tools.edits` `ask`). */
const approvalSubject = {
  approvalId: z.string().min(1).describe('The approval request, unique within the run.'),
  toolCallId: z.string().describe("Pi's tool call id of the save or command."),
  toolName: z.string().describe('The tool that wants to save (or `bash`, to run a command).'),
};

/** The files a save writes, moves or deletes. */
const targets = z.array(z.string()).describe('For a save: the files it writes, moves or deletes.');

/** The fields of an `approval-request` run event. */
export const approvalRequestShape = {
  ...approvalSubject,
  targets: targets.optional(),
  diffs: z
    .array(saveDiffSchema)
    .optional()
    .describe(
      'For a save: the exact change of every file it writes, moves or deletes, from the versions the save is checked against (approved or refused as a whole).',
    ),
  command: z.string().optional().describe('For `bash`: the command line that would run.'),
};

/** The fields of an `approval-answered` run event. */
export const approvalAnsweredShape = {
  ...approvalSubject,
  targets: targets.optional(),
  command: z.string().optional().describe('For `bash`: the command line.'),
  decision: approvalDecisionSchema.describe('Approved or refused.'),
  reason: z
    .string()
    .optional()
    .describe('Why it was refused, as the learner wrote it (the model is told).'),
  forRun: z
    .boolean()
    .optional()
    .describe('True when this answer approved the rest of the run too ("yes to all").'),
  covered: z
    .boolean()
    .optional()
    .describe(
      'True when an earlier "yes to all" of the run approved it: the learner was not asked.',
    ),
};

/** One approval request of a run as the run record keeps it. */
export const approvalRecordSchema = z
  .looseObject({
    ...approvalSubject,
    targets: approvalAnsweredShape.targets,
    command: approvalAnsweredShape.command,
    decision: approvalDecisionSchema
      .optional()
      .describe('Absent while it waits, and when the run ended first (cancelled, interrupted).'),
    reason: approvalAnsweredShape.reason,
    forRun: approvalAnsweredShape.forRun,
    covered: approvalAnsweredShape.covered,
    requestedAt: timestampSchema.describe('When the run asked.'),
    answeredAt: timestampSchema.optional().describe('When it was answered.'),
  })
  .meta({
    id: 'ApprovalRecord',
    description: 'One approval request of a run (`tools.edits` `ask`) and its answer.',
  });
