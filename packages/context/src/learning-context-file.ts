import { join } from 'node:path';
import { z } from 'zod';

/** The version of one source a learning context was built from. */
export interface LearningContextSourceVersion {
  /** Space-relative path (`/`-separated), or a `repa:` identity (never hashed). */
  path: string;
  /** sha256 (hex) of the bytes the context was built from; null for a `repa:` identity. */
  sha256: string | null;
  /** Byte size and modification time seen with the hash: an unchanged stat skips re-hashing. */
  size?: number | undefined;
  /** Modification time (ms) seen with the hash. */
  mtimeMs?: number | undefined;
}

/** The space's current learning context: what the host gives the model at the start of a run. */
export interface LearningContextView {
  /** Changes on every write; snapshots compare it (with the body) to decide whether to re-send. */
  revision: string;
  /** The full body of text given to the model. */
  body: string;
  /** The space-relative sources the body was built from. */
  sources: string[];
}

/** The whole stored learning context: the view plus the versions of its sources. */
export interface LearningContextRecord extends LearningContextView {
  /** The version (sha256) of each source the body was built from; empty when none were recorded. */
  sourceVersions: LearningContextSourceVersion[];
  /** When it was written (ISO 8601); null when not recorded. */
  updatedAt: string | null;
}

/** The largest body a learning context may hold, in UTF-8 bytes. */
export const LEARNING_CONTEXT_BODY_LIMIT = 256 * 1024;

/**
 * The largest `learning-context.json` Repa reads or writes, in bytes: room for a body at
 * {@link LEARNING_CONTEXT_BODY_LIMIT} in JSON (quotes, newlines and backslashes escaped) with its
 * sources and their versions. A larger file is `data_too_large`, found from its size before any
 * of it is read.
 */
export const LEARNING_CONTEXT_FILE_LIMIT = 1024 * 1024;

/** The stored file; extra fields (e.g. `updatedAt`) are allowed and ignored. */
export const learningContextFileSchema = z.looseObject({
  revision: z.string().min(1),
  body: z.string(),
  sources: z.array(z.string()),
  sourceVersions: z
    .array(
      z.looseObject({
        path: z.string(),
        sha256: z.string().nullable(),
        size: z.number().optional(),
        mtimeMs: z.number().optional(),
      }),
    )
    .optional(),
  updatedAt: z.string().optional(),
});

/** `<space>/.repa/learning-context.json`. */
export function learningContextPath(spaceRoot: string): string {
  return join(spaceRoot, '.repa', 'learning-context.json');
}
