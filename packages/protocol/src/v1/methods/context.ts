import { z } from 'zod';
import { idSchema } from '../common.js';
import { learningContextSchema } from '../learning-context.js';
import { method } from '../method.js';
import { spaceParam } from './params.js';

/** The `context.*` methods. */
export const contextMethods = {
  'context.get': method({
    description: "A space's learning context.",
    params: () =>
      z.strictObject({
        space: spaceParam,
        sessionId: idSchema
          .optional()
          .describe(
            'The session whose settings decide `provided`, and whose last-provided revision is told.',
          ),
      }),
    result: () =>
      z.looseObject({
        context: learningContextSchema
          .nullable()
          .describe("The space's learning context, or null when it has none."),
        provided: z
          .looseObject({
            value: z.boolean().describe('The effective value of `prompts.learningContext`.'),
            source: z.string().describe('The level the value comes from.'),
          })
          .optional()
          .describe(
            'Whether the next run is given it: the effective `prompts.learningContext` and its level.',
          ),
        lastProvidedRevision: z
          .string()
          .nullable()
          .optional()
          .describe('With `sessionId`: the revision last given to that session (null: none yet).'),
        ignored: z
          .string()
          .optional()
          .describe(
            'Why no run is given `context` although the space has it (it came with an untrusted folder).',
          ),
      }),
  }),
  'context.set': method({
    description: "Replaces a space's learning context (compare-and-set on its revision).",
    params: () =>
      z.strictObject({
        space: spaceParam,
        body: z.string().describe('The full new body.'),
        sources: z.array(z.string()).describe('The space-relative sources it was built from.'),
        expectedRevision: z
          .string()
          .nullable()
          .describe(
            'Refuse with `stale_version` unless the current revision is this; null: unless none exists.',
          ),
        force: z
          .boolean()
          .optional()
          .describe('Replace a damaged file, keeping its bytes beside it (`damagedFileKept`).'),
      }),
    result: () =>
      z.looseObject({
        revision: z.string().describe('The new revision.'),
        damagedFileKept: z
          .string()
          .optional()
          .describe('Where a damaged file replaced with `force` was kept.'),
      }),
  }),
  'context.build': method({
    description:
      "Builds a space's learning context from documents (progress as `context.progress`); nothing is written unless it completes.",
    params: () =>
      z.strictObject({
        space: spaceParam,
        buildId: idSchema.describe(
          'Client-chosen id of this build: its `context.progress` notifications and `context.cancel`.',
        ),
        sources: z
          .array(z.string())
          .min(1)
          .max(100)
          .describe('Space-relative paths of the documents to build from.'),
        instructions: z.string().max(4000).optional().describe('What the context should focus on.'),
        model: z
          .string()
          .min(1)
          .optional()
          .describe(
            "`provider/id` of the model for this build; default: the model the space's next run uses.",
          ),
        expectedRevision: z
          .string()
          .nullable()
          .optional()
          .describe(
            'Refuse with `stale_version` unless the current revision is this (null: none); any when absent.',
          ),
        force: z
          .boolean()
          .optional()
          .describe('Replace a damaged file, keeping its bytes beside it.'),
      }),
    result: () =>
      z.looseObject({
        revision: z.string().describe('The new revision.'),
        model: z.string().describe('`provider/id` of the model that wrote it, or `repa-offline`.'),
        extractive: z
          .boolean()
          .describe(
            'True when built offline by extraction (headings and first sentences), not by a model.',
          ),
        cut: z
          .array(
            z.looseObject({
              path: z.string().describe('The source.'),
              keptChars: z.number().describe('Characters the model saw.'),
              totalChars: z.number().describe('Characters the source has.'),
              reason: z
                .enum(['window', 'read-limit'])
                .optional()
                .describe(
                  "Why: `window` when the model's window held no more, `read-limit` when a build reads only the first 4 MiB of a source (absent from older daemons).",
                ),
            }),
          )
          .describe("Sources cut to fit the model's window, with how much of each it saw."),
        damagedFileKept: z
          .string()
          .optional()
          .describe('Where a damaged file replaced with `force` was kept.'),
      }),
  }),
  'context.cancel': method({
    description: 'Cancels a running `context.build`; nothing is written.',
    params: () =>
      z.strictObject({
        buildId: idSchema.describe('The build to cancel.'),
      }),
    result: () =>
      z.looseObject({
        cancelled: z.boolean().describe('False when no such build is running.'),
      }),
  }),
} as const;

/** `context.progress` params: one step of a `context.build`, sent to the connection that asked for it. */
export const contextProgressSchema = z
  .looseObject({
    buildId: idSchema.describe('The build.'),
    step: z
      .string()
      .describe(
        '`reading`, `extracting`, `model`, `retry` (Pi retries the model call) or `writing`.',
      ),
    message: z.string().describe('One line for people.'),
  })
  .describe('Progress of a `context.build`, sent to the connection that asked for it.');
