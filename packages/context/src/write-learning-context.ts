import { mkdir, rename, rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  type FsLayer,
  ignoreFolderContents,
  ioError,
  replaceFile,
  syncDirectory,
} from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';
import {
  LEARNING_CONTEXT_BODY_LIMIT,
  LEARNING_CONTEXT_FILE_LIMIT,
  type LearningContextRecord,
  type LearningContextSourceVersion,
  type LearningContextView,
  learningContextPath,
} from './learning-context-file.js';
import { readLearningContext } from './read-learning-context.js';

/** Options of {@link writeLearningContext}. */
export interface WriteLearningContextOptions {
  /** The file system to write through (tests inject faults here); the real one by default. @internal */
  fs?: FsLayer | undefined;
  /** Replace a damaged file, moving its bytes aside to `learning-context.damaged-<time>.json`. */
  force?: boolean | undefined;
  /** Called with the current view (null: none) before writing; may throw to refuse the write. */
  check?: ((current: LearningContextView | null) => void) | undefined;
}

/**
 * Replaces the space's learning context with `body` and `sources`, bumping the revision
 * (`"1"`, `"2"`, …). The file is replaced with `@repa/durable-fs`'s `replaceFile` (temp file,
 * fsync, rename, fsync of the `.repa` folder, and of the space folder when `.repa` is new; a
 * folder fsync counts as done where the file system cannot sync folders); a failure throws
 * `io_error` and leaves the old file. A corrupt existing file is never overwritten: it throws
 * `context_unavailable`, unless `force`, which first moves it aside (its path is in the result's
 * `damagedFileKept`; a file past {@link LEARNING_CONTEXT_FILE_LIMIT}, `data_too_large`, counts as
 * damaged). A body over {@link LEARNING_CONTEXT_BODY_LIMIT} bytes, or a file over
 * {@link LEARNING_CONTEXT_FILE_LIMIT}, is `invalid_request`.
 * Not safe against concurrent writers of the same space.
 */
export async function writeLearningContext(
  spaceRoot: string,
  input: {
    body: string;
    sources: readonly string[];
    sourceVersions?: readonly LearningContextSourceVersion[] | undefined;
  },
  options: WriteLearningContextOptions = {},
): Promise<LearningContextRecord & { damagedFileKept?: string }> {
  const bytes = Buffer.byteLength(input.body, 'utf8');
  if (bytes > LEARNING_CONTEXT_BODY_LIMIT) {
    throw new RepaError(
      'invalid_request',
      `The learning context body is ${bytes} bytes; the limit is ${LEARNING_CONTEXT_BODY_LIMIT} bytes.`,
      {
        fix: 'Shorten the body: keep what the learner works on, the key ideas and open questions.',
        details: { bytes, limit: LEARNING_CONTEXT_BODY_LIMIT },
      },
    );
  }
  // Refused before anything is read or moved; checked again once the revision is known.
  fileText({
    revision: '',
    body: input.body,
    sources: [...input.sources],
    sourceVersions: [...(input.sourceVersions ?? [])],
    updatedAt: new Date().toISOString(),
  });
  const file = learningContextPath(spaceRoot);
  let current: LearningContextView | null;
  let damagedFileKept: string | undefined;
  try {
    current = await readLearningContext(spaceRoot);
  } catch (error) {
    const damaged =
      RepaError.isInstance(error) &&
      (error.code === 'context_unavailable' || error.code === 'data_too_large');
    if (!options.force || !damaged) throw error;
    current = null;
    damagedFileKept = join(
      dirname(file),
      `learning-context.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
    );
  }
  options.check?.(current);
  if (damagedFileKept !== undefined) {
    try {
      await rename(file, damagedFileKept);
    } catch (error) {
      throw ioError(error, `Moving the damaged learning context file ${file} aside`, { file });
    }
  }
  const updatedAt = new Date().toISOString();
  const view: LearningContextRecord = {
    revision: nextRevision(current?.revision),
    body: input.body,
    sources: [...input.sources],
    sourceVersions: [...(input.sourceVersions ?? [])],
    updatedAt,
  };
  const text = fileText(view);
  try {
    // A new `.repa/` is made durable in the space folder first, or a power loss could take it
    // and the file with it; when that fails it is removed again, so the next write retries both.
    if ((await mkdir(dirname(file), { recursive: true })) !== undefined) {
      // Never committed or shared by accident.
      await ignoreFolderContents(dirname(file), { fs: options.fs });
      await syncDirectory(spaceRoot, { fs: options.fs }).catch(async (error: unknown) => {
        await rm(join(dirname(file), '.gitignore'), { force: true }).catch(() => undefined);
        await rmdir(dirname(file)).catch(() => undefined);
        throw error;
      });
    }
    await replaceFile(file, Buffer.from(text, 'utf8'), { fs: options.fs });
  } catch (error) {
    throw ioError(error, `Writing the learning context file ${file}`, { file });
  }
  return damagedFileKept === undefined ? view : { ...view, damagedFileKept };
}

/**
 * The file's text; `invalid_request` when it would pass {@link LEARNING_CONTEXT_FILE_LIMIT}.
 * Contract: never write a file the reader would refuse.
 */
function fileText(view: LearningContextRecord): string {
  const text = `${JSON.stringify(view, null, 2)}\n`;
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > LEARNING_CONTEXT_FILE_LIMIT) {
    throw new RepaError(
      'invalid_request',
      `The learning context would take ${bytes} bytes on disk; the limit is ${LEARNING_CONTEXT_FILE_LIMIT} bytes.`,
      {
        fix: 'Name fewer sources, or shorten the body (a control character takes six bytes in JSON).',
        details: { bytes, limit: LEARNING_CONTEXT_FILE_LIMIT },
      },
    );
  }
  return text;
}

function nextRevision(previous: string | undefined): string {
  if (previous === undefined || !/^\d+$/.test(previous)) return '1';
  return (BigInt(previous) + 1n).toString();
}
