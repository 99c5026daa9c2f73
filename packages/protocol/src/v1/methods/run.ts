import { z } from 'zod';
import { approvalAnswerSchema, approvalRecordSchema } from '../approvals.js';
import { idSchema, spaceRootSchema } from '../common.js';
import { method } from '../method.js';
import { commandChangeSchema, rewindResultSchema, runFileDiffSchema } from '../rewind.js';
import { runInputSchema } from '../run-input.js';
import { runDeliverySchema, runInfoSchema, runStatusSchema } from '../runs.js';
import { overridesParam, requestIdParam, resubmittedResult, spaceParam } from './params.js';

/** The params and result of a method on one run that answers the run as it is then. */
const oneRun = {
  params: () => z.strictObject({ runId: idSchema.describe('The run.') }),
  result: () => z.looseObject({ run: runInfoSchema.describe('The run.') }),
};

/** The `run.*` methods. */
export const runMethods = {
  'run.submit': method({
    description:
      'Accepts a run (idempotent by `requestId`) and subscribes this connection to its events.',
    params: () =>
      z.strictObject({
        space: spaceParam,
        sessionId: idSchema.describe('The session the run belongs to.'),
        requestId: requestIdParam,
        input: runInputSchema.describe('What to do.'),
        overrides: overridesParam,
        delivery: runDeliverySchema
          .optional()
          .describe(
            "How the request reaches the session (default `new`): `queue` waits behind the session's runs; `steer` and `followUp` go into its active run (`no_active_run` when there is none).",
          ),
      }),
    result: () =>
      z.looseObject({
        run: runInfoSchema.describe('The accepted (or original) run.'),
        resubmitted: resubmittedResult,
      }),
  }),
  'run.get': method({
    description: 'One run as the ledger keeps it.',
    ...oneRun,
  }),
  'run.resolve': method({
    description:
      'The run a learner named, by the one rule every client uses: a run id, the first characters of one (among every run of the ledger), or `latest`: the most recent run of `space` (or of its session `sessionId`), where a steer or follow-up message counts as the run it went into. `not_found` when none fits; `invalid_request` with `details.candidates` (at most 5 ids) when several runs start with it.',
    params: () =>
      z.strictObject({
        run: idSchema.describe(
          '`latest`, a run id, or the first characters of one, as the learner typed it.',
        ),
        space: spaceRootSchema
          .optional()
          .describe('The space whose most recent run `latest` means (required with `latest`).'),
        sessionId: idSchema
          .optional()
          .describe("With `latest`: the session's most recent run instead of the space's."),
      }),
    result: () =>
      z.looseObject({
        run: runInfoSchema.describe('The run it names, as `run.get` answers it.'),
      }),
  }),
  'run.list': method({
    description: 'Runs, newest first, filtered by space, session and status.',
    params: () =>
      z.strictObject({
        space: spaceRootSchema.optional().describe('Only runs of this space.'),
        sessionId: idSchema.optional().describe('Only runs of this session.'),
        status: runStatusSchema.optional().describe('Only runs in this status.'),
        limit: z
          .number()
          .int()
          .positive()
          .max(1000)
          .optional()
          .describe('At most this many, newest first (default 50).'),
        brief: z
          .boolean()
          .optional()
          .describe(
            "Leaves out each run's `promptSections` (their texts are most of a run's size): for lists of many runs; `run.get` has them.",
          ),
      }),
    result: () =>
      z.looseObject({
        runs: z.array(runInfoSchema).describe('The matching runs, newest first.'),
      }),
  }),
  'run.subscribe': method({
    description: 'Subscribes this connection to `run.event` notifications of a run.',
    params: () =>
      z.strictObject({
        runId: idSchema.describe('The run whose `run.event` notifications this connection wants.'),
      }),
    result: () =>
      z.looseObject({
        run: runInfoSchema.describe(
          'The run as it is now; events after this state follow as notifications.',
        ),
      }),
  }),
  'run.cancel': method({
    description: 'Cancels a run; answers the run as it is then.',
    ...oneRun,
  }),
  'run.approve': method({
    description:
      "Answers a running run's approval request (`tools.edits` `ask`): the first answer wins; a later one, or one after the run ended, changes nothing and gets the request as it stands (`answered: false`). `not_found` for a request the run never made.",
    params: () =>
      z.strictObject({
        runId: idSchema.describe('The run.'),
        approvalId: z.string().min(1).describe('The approval request (from its event).'),
        answer: approvalAnswerSchema.describe(
          'Approve, approve the rest of the run too, or refuse.',
        ),
        reason: z
          .string()
          .max(2000)
          .optional()
          .describe('With `refuse`: why, told to the model with the refusal.'),
      }),
    result: () =>
      z.looseObject({
        approval: approvalRecordSchema.describe('The request as the run record has it now.'),
        answered: z
          .boolean()
          .describe('True when this answer decided it; false when it was answered already.'),
      }),
  }),
  'run.retry': method({
    description:
      'Retries a finished run as a new run (idempotent by `requestId`) and subscribes this connection to it.',
    params: () =>
      z.strictObject({
        runId: idSchema.describe('The run to retry.'),
        requestId: idSchema.describe('Idempotency key of the retry itself.'),
      }),
    result: () =>
      z.looseObject({
        run: runInfoSchema.describe('The retry (or the original retry for a repeated request id).'),
        resubmitted: z
          .boolean()
          .describe(
            'True when this request id was already accepted and the original retry is returned.',
          ),
      }),
  }),
  'run.resume': method({
    description:
      "Resumes an interrupted or failed run as a new attempt in the same Pi session with the original's accepted settings: when its request entered the history, from where the history ends (no repeated user message, Pi's retries as in any run); when it never did, its own request is sent now. `not_last_run` when a later run of the session entered the history.",
    params: () =>
      z.strictObject({
        runId: idSchema.describe('The interrupted or failed run to resume.'),
        requestId: idSchema.describe('Idempotency key of the resumption itself.'),
      }),
    result: () =>
      z.looseObject({
        run: runInfoSchema.describe(
          'The new attempt (or the original one for a repeated request id).',
        ),
        resubmitted: z
          .boolean()
          .describe(
            'True when this request id was already accepted and the original attempt is returned.',
          ),
      }),
  }),
  'run.prune': method({
    description:
      'Removes from the run ledger the runs that ended before a time, except those a kept run refers to (as a retry, resumption or delivery), and the stored images only they used. Sessions and their histories stay.',
    params: () =>
      z.strictObject({
        endedBefore: z.iso
          .datetime({ offset: true })
          .describe('Runs that ended before this time (ISO 8601) are removed.'),
        space: spaceRootSchema
          .optional()
          .describe('Only runs of this space (default: every space).'),
      }),
    result: () =>
      z.looseObject({
        pruned: z.number().int().nonnegative().describe('How many runs were removed.'),
        imagesRemoved: z
          .number()
          .int()
          .nonnegative()
          .describe('How many stored images no run used any more and were deleted.'),
      }),
  }),
  'run.diff': method({
    description:
      "What a run (or a rewind) changed, file by file, as unified diffs from the bytes its saves replaced and wrote (kept under the space's `.repa/history/`).",
    params: () =>
      z.strictObject({
        runId: idSchema.describe('The run, or a rewind id.'),
        file: z
          .string()
          .min(1)
          .optional()
          .describe('Only this file (a path relative to the space root, either end of a move).'),
      }),
    result: () =>
      z.looseObject({
        runId: idSchema.describe('The run.'),
        files: z.array(runFileDiffSchema).describe('Each file the run changed, in target order.'),
        commands: z
          .array(commandChangeSchema)
          .describe(
            'Files changed by `bash` commands of the run (no diff: commands keep no bytes).',
          ),
      }),
  }),
  'run.rewind': method({
    description:
      "Restores each file a finished run saved to its version before the run, where it is still exactly the run's last version; a file changed since is refused with `stale_version` unless `force`. The rewind's own saves have receipts, so it can be rewound in turn (its `rewindId` as `runId`).",
    params: () =>
      z.strictObject({
        runId: idSchema.describe('The run to rewind, or a rewind id to undo that rewind.'),
        operationId: idSchema
          .optional()
          .describe('Only this save of the run (`<runId>-<n>`, as its receipt names it).'),
        files: z
          .array(z.string().min(1))
          .max(1000)
          .optional()
          .describe('Only these files (paths relative to the space root; either end of a move).'),
        conversation: z
          .boolean()
          .optional()
          .describe(
            "Also move the session's conversation back to before the run (a branch in Pi's session tree; the old branch stays in the file).",
          ),
        force: z
          .boolean()
          .optional()
          .describe(
            'Write the old bytes over files changed since the run too (each a new save, reported `forced`).',
          ),
        preview: z
          .boolean()
          .optional()
          .describe('Only report what would be restored and what refused; nothing is written.'),
      }),
    result: () =>
      z.looseObject({
        rewind: rewindResultSchema.describe('What the rewind did, or as a preview would do.'),
      }),
  }),
} as const;
