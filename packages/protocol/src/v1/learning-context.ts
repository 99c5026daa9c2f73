import { z } from 'zod';

/** One source of a learning context: its recorded version and its state now. */
export const learningContextSourceStateSchema = z.looseObject({
  /** Space-relative path or `repa:` identity. */
  path: z.string().describe('Space-relative path or `repa:` identity.'),
  /** sha256 (hex) of the bytes the context was built from; null when none was recorded. */
  sha256: z
    .string()
    .nullable()
    .describe('sha256 (hex) of the bytes the context was built from; null when none was recorded.'),
  /** Compared with the space now (stat first, then the hash); `unversioned`: nothing to compare. */
  state: z
    .enum(['unchanged', 'changed', 'vanished', 'unversioned'])
    .describe(
      'Compared with the space now (stat first, then the hash); `unversioned`: nothing to compare.',
    ),
});
/** One source of a learning context with its state. */
export interface LearningContextSourceState {
  /** Space-relative path or `repa:` identity. */
  path: string;
  /** sha256 (hex) of the bytes the context was built from; null when none was recorded. */
  sha256: string | null;
  /** Compared with the space now (stat first, then the hash); `unversioned`: nothing to compare. */
  state: 'unchanged' | 'changed' | 'vanished' | 'unversioned';
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** A space's learning context (`<space>/.repa/learning-context.json`). */
export const learningContextSchema = z.looseObject({
  /** The full body of text given to the model. */
  body: z.string().describe('The full body of text given to the model.'),
  /** The space-relative sources the body was built from. */
  sources: z.array(z.string()).describe('The space-relative sources the body was built from.'),
  /** Changes on every write; `context.set` compares it. */
  revision: z.string().describe('Changes on every write; `context.set` compares it.'),
  /** When it was written (ISO 8601), when recorded. */
  updatedAt: z
    .string()
    .nullable()
    .optional()
    .describe('When it was written (ISO 8601), when recorded.'),
  /** Each source with the sha256 it was built from and whether it changed or vanished since. */
  sourceStates: z
    .array(learningContextSourceStateSchema)
    .optional()
    .describe(
      'Each source with the sha256 it was built from and whether it changed or vanished since.',
    ),
});
/** A space's learning context. */
export interface LearningContext {
  /** The full body of text given to the model. */
  body: string;
  /** The space-relative sources the body was built from. */
  sources: string[];
  /** Changes on every write; `context.set` compares it. */
  revision: string;
  /** When it was written (ISO 8601), when recorded. */
  updatedAt?: string | null | undefined;
  /** Each source with the sha256 it was built from and whether it changed or vanished since. */
  sourceStates?: LearningContextSourceState[] | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}
