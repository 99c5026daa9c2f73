import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { RepaError } from '@repa/protocol';
import writeFileAtomic from 'write-file-atomic';
import { type LearningContextView, learningContextPath } from './learning-context-file.js';
import { readLearningContext } from './read-learning-context.js';

/**
 * Replaces the space's learning context with `body` and `sources`, bumping the revision
 * (`"1"`, `"2"`, …). The file is written atomically: temp file, fsync, rename, then an fsync of
 * the `.repa` folder. A corrupt existing file is never overwritten: it throws `context_unavailable`.
 * Not safe against concurrent writers of the same space (last one wins).
 */
export async function writeLearningContext(
  spaceRoot: string,
  input: { body: string; sources: readonly string[] },
): Promise<LearningContextView> {
  const file = learningContextPath(spaceRoot);
  const current = await readLearningContext(spaceRoot);
  const view: LearningContextView = {
    revision: nextRevision(current?.revision),
    body: input.body,
    sources: [...input.sources],
  };
  const text = `${JSON.stringify({ ...view, updatedAt: new Date().toISOString() }, null, 2)}\n`;
  try {
    await mkdir(dirname(file), { recursive: true });
    await writeFileAtomic(file, text, { encoding: 'utf8', fsync: true });
    await fsyncDirectory(dirname(file));
  } catch (error) {
    throw new RepaError(
      'io_error',
      `Cannot write the learning context file ${file}: ${String(error)}`,
      {
        details: { file },
        cause: error,
      },
    );
  }
  return view;
}

function nextRevision(previous: string | undefined): string {
  if (previous === undefined || !/^\d+$/.test(previous)) return '1';
  return (BigInt(previous) + 1n).toString();
}

async function fsyncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
