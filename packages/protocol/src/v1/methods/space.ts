import { z } from 'zod';
import { spaceRootSchema, timestampSchema } from '../common.js';
import { method } from '../method.js';
import { restrictedItemSchema, trustReasonSchema } from '../trust.js';
import { spaceParam } from './params.js';

const spaceInfoSchema = z.looseObject({
  root: spaceRootSchema.describe('The space root (an absolute, real path).'),
  name: z.string().describe("The folder's name."),
  learningContext: z
    .object({
      revision: z.string().describe('Its revision.'),
      chars: z.number().int().nonnegative().describe('Body length in characters.'),
      sources: z.array(z.string()).describe('The sources it was built from.'),
    })
    .nullable()
    .describe('The current learning context, when the space has one.'),
  trusted: z
    .boolean()
    .optional()
    .describe(
      'Whether the learner trusts the space (spec R13); untrusted, what `restricted` lists has no effect.',
    ),
  trustReason: trustReasonSchema
    .optional()
    .describe(
      'Why it is trusted: `user` (`space.trust`) or `created` (Repa made a plain folder a space).',
    ),
  restricted: z
    .array(restrictedItemSchema)
    .optional()
    .describe('What the space holds that has no effect until it is trusted (empty when trusted).'),
});

const knownSpaceSchema = z.looseObject({
  root: spaceRootSchema.describe('The space root (the real path it had when it was opened).'),
  name: z.string().describe("The folder's name."),
  openedAt: timestampSchema.describe('When the daemon last opened it (ISO 8601).'),
  missing: z
    .boolean()
    .describe('True when no folder is at `root` any more (moved or deleted since).'),
  trusted: z.boolean().describe('Whether the learner trusts the space (spec R13).'),
});

/** The `space.*` methods. */
export const spaceMethods = {
  'space.open': method({
    description: 'Opens a space folder and describes it (name, learning context).',
    params: () =>
      z.strictObject({
        root: spaceRootSchema.describe('The space root folder (an absolute path).'),
        named: z
          .boolean()
          .optional()
          .describe(
            "True when the learner named this folder (`--space DIR`, design R17): the root of the file system, the home folder and a folder holding Pi's agent dir or Repa's app dir become a space only when named (`space_unsafe` otherwise); a folder once named stays a space.",
          ),
      }),
    result: () =>
      z.looseObject({
        space: spaceInfoSchema.describe('The opened space.'),
      }),
  }),
  'space.trust': method({
    description:
      'Records whether the learner trusts a space (kept in the app directory; spec R13).',
    params: () =>
      z.strictObject({
        space: spaceParam,
        trusted: z
          .boolean()
          .describe('True trusts the space from the next run on; false withdraws the trust.'),
      }),
    result: () =>
      z.looseObject({
        space: spaceRootSchema.describe('The space root (its real path).'),
        trusted: z.boolean().describe('Whether the space is trusted now.'),
        wasTrusted: z.boolean().describe('Whether it was trusted before this call.'),
        restricted: z
          .array(restrictedItemSchema)
          .optional()
          .describe(
            'What the space holds that trusting it lets take effect (restricted again when distrusted).',
          ),
      }),
  }),
  'space.list': method({
    description:
      'The spaces the daemon has opened (kept in the app directory), the last opened first.',
    params: () => z.strictObject({}),
    result: () =>
      z.looseObject({
        spaces: z
          .array(knownSpaceSchema)
          .describe('The known spaces, the most recently opened first; vanished folders marked.'),
      }),
  }),
} as const;
