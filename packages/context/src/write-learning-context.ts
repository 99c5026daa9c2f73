import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type FsLayer, ioError, replaceFile } from '@repa/durable-fs';
import { type LearningContextView, learningContextPath } from './learning-context-file.js';
import { readLearningContext } from './read-learning-context.js';

/** Options of {@link writeLearningContext}. @internal */
export interface WriteLearningContextOptions {
  /** The file system to write through (tests inject faults here); the real one by default. @internal */
  fs?: FsLayer | undefined;
}

/**
 * Replaces the space's learning context with `body` and `sources`, bumping the revision
 * (`"1"`, `"2"`, …). The file is replaced with `@repa/durable-fs`'s `replaceFile` (temp file,
 * fsync, rename, fsync of the `.repa` folder, which counts as done where the file system cannot
 * sync folders); a failure throws `io_error` and leaves the old file. A corrupt existing file is
 * never overwritten: it throws `context_unavailable`.
 * Not safe against concurrent writers of the same space (last one wins).
 */
export async function writeLearningContext(
  spaceRoot: string,
  input: { body: string; sources: readonly string[] },
  options: WriteLearningContextOptions = {},
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
    await replaceFile(file, Buffer.from(text, 'utf8'), { fs: options.fs });
  } catch (error) {
    throw ioError(error, `Writing the learning context file ${file}`, { file });
  }
  return view;
}

function nextRevision(previous: string | undefined): string {
  if (previous === undefined || !/^\d+$/.test(previous)) return '1';
  return (BigInt(previous) + 1n).toString();
}
