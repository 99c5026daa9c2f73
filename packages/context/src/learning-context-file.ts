import { join } from 'node:path';
import { z } from 'zod';

/** The space's current learning context: what the host gives the model at the start of a run. */
export interface LearningContextView {
  /** Changes on every write; snapshots compare it (with the body) to decide whether to re-send. */
  revision: string;
  /** The full body of text given to the model. */
  body: string;
  /** The space-relative sources the body was built from. */
  sources: string[];
}

/** The stored file; extra fields (e.g. `updatedAt`) are allowed and ignored. */
export const learningContextFileSchema = z.looseObject({
  revision: z.string().min(1),
  body: z.string(),
  sources: z.array(z.string()),
});

/** `<space>/.repa/learning-context.json`. */
export function learningContextPath(spaceRoot: string): string {
  return join(spaceRoot, '.repa', 'learning-context.json');
}
