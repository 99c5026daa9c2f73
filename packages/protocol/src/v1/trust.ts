import { z } from 'zod';

/** What kind of thing of a space has no effect until the space is trusted (spec R13). */
export const restrictedKindSchema = z.enum([
  'pi-settings',
  'pi-resources',
  'instructions',
  'agent-skills',
  'settings',
  'learning-context',
  'sessions',
]);

/** One thing found in an untrusted space that Repa leaves without effect until `space.trust`. */
export const restrictedItemSchema = z
  .looseObject({
    kind: restrictedKindSchema.describe(
      "What it is: Pi's project settings or resources, instruction files, skills, Repa settings, a learning context, sessions.",
    ),
    path: z
      .string()
      .describe('Where it is, relative to the space root (e.g. `.pi/settings.json`).'),
    detail: z.string().describe('What trusting the space would let it do, in a sentence.'),
    runsCode: z
      .boolean()
      .optional()
      .describe(
        "True when trusting the space lets it run as code on the learner's machine with the learner's rights (a Pi extension, a Pi package, a command in Pi's settings, or a link Pi would follow to them).",
      ),
    name: z
      .string()
      .optional()
      .describe(
        "Its name: a skill's folder, a prompt template's name, or an extension or package as `.pi/settings.json` names it.",
      ),
    lines: z
      .array(z.string())
      .optional()
      .describe(
        "An instruction file's first lines (at most 5, bounded in length), control characters shown as `\\u{…}` escapes.",
      ),
  })
  .meta({
    id: 'RestrictedItem',
    description:
      'One thing found in an untrusted space that Repa leaves without effect until the space is trusted.',
  });

/** Why a space is trusted: the learner trusted it, or Repa made it a space from a plain folder. */
export const trustReasonSchema = z.enum(['user', 'created']);
