import { z } from 'zod';

/** The named sections of Repa's system prompt, in prompt order. */
export const promptSectionNameSchema = z.enum([
  'base',
  'environment',
  'materials',
  'skillCatalog',
  'projectInstructions',
  'tools',
  'fileChanges',
  'citations',
  'tutor',
  'append',
]);

/** What the model was told in one section, and why a section is absent. */
export const promptSectionReportSchema = z
  .object({
    name: promptSectionNameSchema.describe('The section.'),
    included: z.boolean().describe('Whether it is in the prompt.'),
    reason: z
      .string()
      .describe(
        'Why it is included or absent, e.g. "disabled by space override", "not trusted", "empty".',
      ),
    text: z.string().describe("The section's text (empty when absent)."),
    chars: z.number().int().nonnegative().describe('Length of `text` in UTF-16 code units.'),
    sha256: z.string().describe('sha256 hex of `text` (UTF-8).'),
  })
  .meta({
    id: 'PromptSection',
    description:
      'What the model was told in one section of the system prompt, and why a section is absent.',
  });
