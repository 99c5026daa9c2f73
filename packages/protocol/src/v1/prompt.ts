import { z } from 'zod';

/** The named sections of Repa's system prompt, in prompt order. */
export const promptSectionNameSchema = z.enum([
  'base',
  'environment',
  'skillCatalog',
  'projectInstructions',
  'tools',
  'fileChanges',
  'append',
]);
/** A named section of Repa's system prompt. */
export type PromptSectionName = z.infer<typeof promptSectionNameSchema>;

/** What the model was told in one section, and why a section is absent. */
export const promptSectionReportSchema = z
  .object({
    /** The section. */
    name: promptSectionNameSchema.describe('The section.'),
    /** Whether it is in the prompt. */
    included: z.boolean().describe('Whether it is in the prompt.'),
    /** Why it is included or absent, e.g. "disabled by space override", "not trusted", "empty". */
    reason: z
      .string()
      .describe(
        'Why it is included or absent, e.g. "disabled by space override", "not trusted", "empty".',
      ),
    /** The section's text (empty when absent). */
    text: z.string().describe("The section's text (empty when absent)."),
    /** Length of `text` in UTF-16 code units. */
    chars: z.number().int().nonnegative().describe('Length of `text` in UTF-16 code units.'),
    /** sha256 hex of `text` (UTF-8). */
    sha256: z.string().describe('sha256 hex of `text` (UTF-8).'),
  })
  .meta({
    id: 'PromptSection',
    description:
      'What the model was told in one section of the system prompt, and why a section is absent.',
  });
/** What the model was told in one section. */
export interface PromptSectionReport {
  /** The section. */
  name: PromptSectionName;
  /** Whether it is in the prompt. */
  included: boolean;
  /** Why it is included or absent, e.g. "disabled by space override", "not trusted", "empty". */
  reason: string;
  /** The section's text (empty when absent). */
  text: string;
  /** Length of `text` in UTF-16 code units. */
  chars: number;
  /** sha256 hex of `text` (UTF-8). */
  sha256: string;
}
