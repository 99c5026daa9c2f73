import { readLearningContext, writeLearningContext } from '@repa/context';
import { type LearningContext, RepaError } from '@repa/protocol';

/** A space's learning context, or null when it has none; `context_unavailable` when it is damaged. */
export async function getLearningContext(space: string): Promise<LearningContext | null> {
  const view = await readLearningContext(space);
  return view ? { body: view.body, sources: view.sources, revision: view.revision } : null;
}

/** What {@link setLearningContext} writes. */
export interface SetLearningContextInput {
  /** The full new body. */
  body: string;
  /** The space-relative sources it was built from. */
  sources: readonly string[];
  /** The revision the caller read; null when it read none. */
  expectedRevision: string | null;
}

/**
 * Replaces a space's learning context when its revision is still `expectedRevision` (null: when the
 * space has none), else throws `stale_version` with the current revision in `details`. The check and
 * the write are not atomic against other processes: callers serialize the writes of one space.
 */
export async function setLearningContext(
  space: string,
  input: SetLearningContextInput,
): Promise<LearningContext> {
  const current = await readLearningContext(space);
  const revision = current?.revision ?? null;
  if (revision !== input.expectedRevision) {
    throw new RepaError(
      'stale_version',
      revision === null
        ? `The space has no learning context (expected revision ${input.expectedRevision}).`
        : `The learning context is at revision ${revision}, not ${input.expectedRevision ?? 'absent'}.`,
      {
        fix: 'Read it again (context.get), merge your change, and write with its revision.',
        details: { currentRevision: revision },
      },
    );
  }
  const view = await writeLearningContext(space, { body: input.body, sources: input.sources });
  return { body: view.body, sources: view.sources, revision: view.revision };
}
