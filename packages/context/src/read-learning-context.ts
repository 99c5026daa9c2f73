import { dirname } from 'node:path';
import { errnoCode, type FsHandle, nodeFsLayer, READ_NO_FOLLOW } from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';
import {
  LEARNING_CONTEXT_FILE_LIMIT,
  type LearningContextRecord,
  type LearningContextView,
  learningContextFileSchema,
  learningContextPath,
} from './learning-context-file.js';

/**
 * Reads the space's current learning context from `<space>/.repa/learning-context.json`.
 * Returns `null` when the space has none (the file does not exist). A file larger than
 * {@link LEARNING_CONTEXT_FILE_LIMIT} throws `data_too_large` (nothing of it is read); any other
 * failure (a symlink, FIFO or other non-regular file, invalid JSON, wrong shape) throws
 * `context_unavailable` naming the file and the problem, so the host can fail the run before the
 * user message enters Pi history (spec R31).
 */
export async function readLearningContext(spaceRoot: string): Promise<LearningContextView | null> {
  const record = await readLearningContextRecord(spaceRoot);
  return record && { revision: record.revision, body: record.body, sources: record.sources };
}

/** Like {@link readLearningContext}, with the recorded source versions and write time. */
export async function readLearningContextRecord(
  spaceRoot: string,
): Promise<LearningContextRecord | null> {
  const file = learningContextPath(spaceRoot);
  const text = await readRegularFile(file);
  if (text === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw unavailable(file, `is not valid JSON (${errorText(error)})`, error);
  }
  const parsed = learningContextFileSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map(
        (issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`,
      )
      .join('; ');
    throw unavailable(file, `has the wrong shape (${problems})`, parsed.error);
  }
  const { revision, body, sources, sourceVersions, updatedAt } = parsed.data;
  return {
    revision,
    body,
    sources,
    sourceVersions: (sourceVersions ?? []).map(({ path, sha256, size, mtimeMs }) => ({
      path,
      sha256,
      ...(size === undefined ? {} : { size }),
      ...(mtimeMs === undefined ? {} : { mtimeMs }),
    })),
    updatedAt: updatedAt ?? null,
  };
}

/**
 * The file's text, or `null` when it (or `.repa`) does not exist. Read through `nodeFsLayer`: at
 * every run start, so its metadata calls and a file up to 64 KiB run on this thread (no thread-pool
 * round trips); a larger one is read through the pool and blocks no one. Never more than
 * {@link LEARNING_CONTEXT_FILE_LIMIT} bytes and one are read, even from a file that grows meanwhile.
 */
async function readRegularFile(file: string): Promise<string | null> {
  const fs = nodeFsLayer;
  const repaDir = dirname(file);
  const folder = await fs.lstat(repaDir).catch((error: unknown) => {
    if (errnoCode(error) === 'ENOENT') return null;
    throw unavailable(file, `cannot be read (${errorText(error)})`, error);
  });
  if (folder === null) return null;
  if (!folder.isDirectory()) {
    throw new RepaError(
      'space_unsafe',
      `${repaDir} is not a plain folder (a symlink or a file); the learning context is not read through it.`,
      { details: { file } },
    );
  }
  let handle: FsHandle;
  try {
    // Never through a symlink, never waiting on a FIFO or device: the space is untrusted input.
    handle = await fs.open(file, READ_NO_FOLLOW);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP') throw unavailable(file, 'is a symlink', error);
    if (code === 'ENXIO' || code === 'EOPNOTSUPP') {
      throw unavailable(file, 'is not a regular file', error);
    }
    throw unavailable(file, `cannot be read (${errorText(error)})`, error);
  }
  try {
    const stats = await fs.fstat(handle);
    if (stats.isDirectory()) throw unavailable(file, 'cannot be read (it is a folder)', undefined);
    if (!stats.isFile()) throw unavailable(file, 'is not a regular file', undefined);
    if (stats.size > BigInt(LEARNING_CONTEXT_FILE_LIMIT)) throw tooLarge(file, stats.size);
    const bytes = await fs.readAt(handle, LEARNING_CONTEXT_FILE_LIMIT + 1, 0);
    if (bytes.length > LEARNING_CONTEXT_FILE_LIMIT) throw tooLarge(file, bytes.length);
    return bytes.toString('utf8');
  } catch (error) {
    if (RepaError.isInstance(error)) throw error;
    throw unavailable(file, `cannot be read (${errorText(error)})`, error);
  } finally {
    await fs.close(handle).catch(() => undefined);
  }
}

function unavailable(file: string, problem: string, cause: unknown): RepaError {
  return new RepaError('context_unavailable', `The learning context file ${file} ${problem}.`, {
    fix: `Repair or remove ${file} (it must hold {"revision", "body", "sources"}), then submit again.`,
    details: { file, problem },
    cause,
  });
}

function tooLarge(file: string, size: number | bigint): RepaError {
  const limit = LEARNING_CONTEXT_FILE_LIMIT;
  return new RepaError(
    'data_too_large',
    `The learning context file ${file} has ${size} bytes; Repa reads at most ${limit}.`,
    {
      fix: `Replace it (repa context set --force keeps its bytes beside it) or remove ${file}; a learning context body holds at most 256 KiB.`,
      details: { file, size: Number(size), limit },
    },
  );
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
