import { createHash } from 'node:crypto';
import { isAbsolute, join } from 'node:path';
import { type FsLayer, nodeFsLayer } from '@repa/durable-fs';
import { z } from 'zod';
import { dataCorrupt, problemOf, readDataFile } from '../files/index.js';

/** The file in the application directory that grants access to outside materials (spec R15). */
export const CONTENT_ACCESS_FILE = 'repa-content-access.json';

/** The largest grants file read or written (bytes); a larger one is `data_corrupt`. */
export const MAX_GRANTS_BYTES = 4 * 1024 * 1024;

/** A material id: letters, digits, `-` and `_` (it is the `<id>` of `repa:material/<id>`). */
export const MATERIAL_ID = /^[A-Za-z0-9_-]{1,100}$/u;

/** What a material was when it was granted: a document format, or text. */
export const materialTypeSchema = z.enum(['pdf', 'docx', 'epub', 'html', 'text']);

const grantSchema = z.looseObject({
  /** Absolute path of the outside file. */
  path: z.string().refine(isAbsolute, 'must be an absolute path'),
  /** Space roots the grant applies to; absent = every space. */
  spaces: z.array(z.string()).optional(),
  /** The learner's title for it. */
  title: z.string().max(300).optional(),
  /** What it was when granted (by `materials.add`; absent in a hand-written grant). */
  type: materialTypeSchema.optional(),
  /** Its size when granted, in bytes. */
  bytes: z.number().int().nonnegative().optional(),
  /** When it was granted (ISO 8601). */
  addedAt: z.string().optional(),
});

const grantsSchema = z.looseObject({
  format: z.literal('repa.content-access/1'),
  /** material id → grant. */
  materials: z.record(z.string().regex(MATERIAL_ID), grantSchema),
});

/** One grant of the file, as written. */
export type MaterialGrant = z.infer<typeof grantSchema>;

/** The grants file as read: its grants, and its revision (the sha256 of its bytes; null: none). */
export interface GrantsFile {
  /** Where it is. */
  file: string;
  /** The sha256 (hex) of its bytes, or null when there is no file. */
  revision: string | null;
  /** The whole document (unknown fields kept, so a write never drops them). */
  document: z.infer<typeof grantsSchema>;
}

/**
 * Reads and checks the grants file of `appDirectory` (a missing file grants nothing). A damaged
 * file (or one that is not a regular file, or larger than 4 MiB) is `data_corrupt`, naming the
 * file; it is never rewritten (spec R15).
 */
export async function readGrantsFile(
  appDirectory: string,
  fs: FsLayer = nodeFsLayer,
): Promise<GrantsFile> {
  const file = join(appDirectory, CONTENT_ACCESS_FILE);
  const bytes = await readDataFile(fs, file, 'content access file', {
    maxBytes: MAX_GRANTS_BYTES,
  });
  if (bytes === undefined) {
    return { file, revision: null, document: { format: 'repa.content-access/1', materials: {} } };
  }
  try {
    const document = grantsSchema.parse(JSON.parse(bytes.toString('utf8')));
    return { file, revision: createHash('sha256').update(bytes).digest('hex'), document };
  } catch (error) {
    throw dataCorrupt('content access file', file, problemOf(error), { cause: error });
  }
}

/** Whether `grant` applies to the space with these roots (its real and its given path). */
export function grantedTo(grant: MaterialGrant, roots: readonly string[]): boolean {
  return grant.spaces === undefined || grant.spaces.some((space) => roots.includes(space));
}

/**
 * The absolute path granted for material `id` in the space at `root`; `'other-spaces'` when the
 * material is granted only to other spaces; `undefined` when there is no such grant. Reads the
 * grants file on every call, so edits take effect at once. Throws `data_corrupt` when the file is
 * damaged (it is never rewritten here).
 */
export async function grantedMaterialPath(
  fs: FsLayer,
  appDirectory: string | undefined,
  roots: readonly string[],
  id: string,
): Promise<string | 'other-spaces' | undefined> {
  if (appDirectory === undefined) return undefined;
  const { materials } = (await readGrantsFile(appDirectory, fs)).document;
  const grant = Object.hasOwn(materials, id) ? materials[id] : undefined;
  if (grant === undefined) return undefined;
  return grantedTo(grant, roots) ? grant.path : 'other-spaces';
}
