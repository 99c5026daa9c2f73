import { isAbsolute, join } from 'node:path';
import type { FsLayer } from '@repa/durable-fs';
import { z } from 'zod';
import { dataCorrupt, problemOf, readDataFile } from '../files/index.js';

/** The file in the application directory that grants access to outside materials (spec R15). */
export const CONTENT_ACCESS_FILE = 'repa-content-access.json';

/** The largest grants file read (bytes); a larger one is `data_corrupt`. */
const MAX_GRANTS_BYTES = 4 * 1024 * 1024;

const grantsSchema = z.looseObject({
  format: z.literal('repa.content-access/1'),
  /** material id → grant. */
  materials: z.record(
    z.string().regex(/^[A-Za-z0-9_-]{1,100}$/u),
    z.looseObject({
      /** Absolute path of the outside file. */
      path: z.string().refine(isAbsolute, 'must be an absolute path'),
      /** Space roots the grant applies to; absent = every space. */
      spaces: z.array(z.string()).optional(),
    }),
  ),
});

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
  const file = join(appDirectory, CONTENT_ACCESS_FILE);
  const bytes = await readDataFile(fs, file, 'content access file', {
    maxBytes: MAX_GRANTS_BYTES,
  });
  if (bytes === undefined) return undefined;
  let grants: z.infer<typeof grantsSchema>;
  try {
    grants = grantsSchema.parse(JSON.parse(bytes.toString('utf8')));
  } catch (error) {
    throw dataCorrupt('content access file', file, problemOf(error), { cause: error });
  }
  const grant = grants.materials[id];
  if (grant === undefined) return undefined;
  if (grant.spaces !== undefined && !grant.spaces.some((space) => roots.includes(space))) {
    return 'other-spaces';
  }
  return grant.path;
}
