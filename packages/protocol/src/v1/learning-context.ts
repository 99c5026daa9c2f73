import { z } from 'zod';

/** One source of a learning context: its recorded version and its state now. */
export const learningContextSourceStateSchema = z.looseObject({
  path: z.string().describe('Space-relative path or `repa:` identity.'),
  sha256: z
    .string()
    .nullable()
    .describe('sha256 (hex) of the bytes the context was built from; null when none was recorded.'),
  state: z
    .enum(['unchanged', 'changed', 'vanished', 'unversioned'])
    .describe(
      'Compared with the space now (stat first, then the hash); `unversioned`: nothing to compare.',
    ),
});

/** A space's learning context (`<space>/.repa/learning-context.json`). */
export const learningContextSchema = z.looseObject({
  body: z.string().describe('The full body of text given to the model.'),
  sources: z.array(z.string()).describe('The space-relative sources the body was built from.'),
  revision: z.string().describe('Changes on every write; `context.set` compares it.'),
  updatedAt: z
    .string()
    .nullable()
    .optional()
    .describe('When it was written (ISO 8601), when recorded.'),
  sourceStates: z
    .array(learningContextSourceStateSchema)
    .optional()
    .describe(
      'Each source with the sha256 it was built from and whether it changed or vanished since.',
    ),
});
