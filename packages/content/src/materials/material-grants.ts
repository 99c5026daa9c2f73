import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import { basename, extname, isAbsolute, join } from 'node:path';
import { contentKindOf, unsupportedContent } from '@repa/documents';
import {
  acquireFileLock,
  errnoCode,
  type FsLayer,
  nodeFsLayer,
  replaceFile,
} from '@repa/durable-fs';
import { type MaterialInfo, RepaError } from '@repa/protocol';
import type { z } from 'zod';
import {
  CONTENT_ACCESS_FILE,
  grantedTo,
  MATERIAL_ID,
  MAX_GRANTS_BYTES,
  type MaterialGrant,
  type materialTypeSchema,
  openOutsideFile,
  readGrantsFile,
} from '../space/index.js';

/** What a material is: a document format, or text. */
export type MaterialType = z.infer<typeof materialTypeSchema>;

/** How many bytes of a material are looked at to tell its type. */
const HEAD_BYTES = 64 * 1024;
/** A lock whose holder stopped refreshing it this long ago is taken over (as settings files). */
const LOCK_STALE_MS = 10_000;

/**
 * The type and size of the regular file at `path` (a real path, checked and opened without
 * following a link: see `openOutsideFile`; `shown` names it) from its first bytes; `vanished`
 * when no regular file is there.
 */
async function typeOf(
  path: string,
  shown: string,
): Promise<{ type: MaterialType | { unsupported: string }; size: number } | 'vanished'> {
  const fs = nodeFsLayer;
  const handle = await openOutsideFile(fs, path, shown);
  try {
    const stats = await fs.fstat(handle);
    // Read only once it is known to be a regular file: a FIFO there is never waited on.
    if (!stats.isFile()) return 'vanished';
    const head = await fs.readAt(handle, HEAD_BYTES, 0);
    const kind = contentKindOf(head, path);
    const type =
      kind.kind === 'unsupported'
        ? { unsupported: kind.type }
        : kind.kind === 'text'
          ? ('text' as const)
          : kind.format;
    return { type, size: Number(stats.size) };
  } finally {
    await fs.close(handle).catch(() => undefined);
  }
}

/** How a grant's file stands now: a file replaced by a link, or reached through one, is `vanished`. */
async function describe(id: string, grant: MaterialGrant): Promise<MaterialInfo> {
  const base: MaterialInfo = {
    id,
    identity: `repa:material/${id}`,
    path: grant.path,
    ...(grant.title === undefined ? {} : { title: grant.title }),
    ...(grant.type === undefined ? {} : { type: grant.type }),
    spaces: grant.spaces ?? null,
    state: 'ok',
  };
  try {
    const found = await typeOf(grant.path, base.identity);
    if (found === 'vanished') return { ...base, state: 'vanished' };
    const current = typeof found.type === 'string' ? found.type : found.type.unsupported;
    const changed = grant.type !== undefined && current !== grant.type;
    return {
      ...base,
      bytes: found.size,
      ...(changed ? { state: 'changed' as const, currentType: current } : {}),
    };
  } catch {
    return { ...base, state: 'vanished' };
  }
}

/** The roots a space is known by: the path given and its real path (a grant may name either). */
async function rootsOf(space: string): Promise<string[]> {
  const real = await realpath(space).catch(() => space);
  return real === space ? [space] : [space, real];
}

/**
 * The materials of `appDirectory`'s grants file with their state now, in id order; with `space`
 * (a space's folder as given), only those granted to it by that path or by its real path.
 * `revision` is the file's (null: none yet).
 */
export async function listMaterials(
  appDirectory: string,
  options: { space?: string } = {},
): Promise<{ revision: string | null; materials: MaterialInfo[] }> {
  const { revision, document } = await readGrantsFile(appDirectory);
  const roots = options.space === undefined ? undefined : await rootsOf(options.space);
  const entries = Object.entries(document.materials)
    .filter(([, grant]) => roots === undefined || grantedTo(grant, roots))
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return {
    revision,
    materials: await Promise.all(entries.map(([id, grant]) => describe(id, grant))),
  };
}

/** An id made from a file name: `Chapter 3 (draft).pdf` → `chapter-3-draft`. */
function idFrom(path: string): string {
  const id = basename(path, extname(path))
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9_-]+/gu, '-')
    .replace(/^-+|-+$/gu, '')
    .toLowerCase()
    .slice(0, 80);
  return id === '' ? 'material' : id;
}

/** What {@link addMaterial} grants. */
export interface AddMaterialInput {
  /** The outside file (absolute). */
  path: string;
  /** Its id; by default one made from its file name (with `-2`, `-3`, … when taken). */
  id?: string;
  /** The learner's title. */
  title?: string;
  /** The spaces (real roots) it is granted to, or null for every space. */
  spaces: readonly string[] | null;
  /** Refuse with `stale_version` unless the grants file is at this revision (null: no file yet). */
  expectedRevision?: string | null;
}

/**
 * Grants the outside file `input.path` as a material (spec R15): it must be a regular file Repa
 * reads as text (a PDF, DOCX, EPUB, HTML or text file; else `unsupported_content`). A new id is
 * added; adding an id again with the same file adds the spaces to its grant; an id granted to
 * another file is `invalid_request`. Written under the file's lock, atomically, against the
 * revision read (see {@link updateGrants}).
 */
export async function addMaterial(
  appDirectory: string,
  input: AddMaterialInput,
): Promise<{ revision: string; material: MaterialInfo }> {
  if (!isAbsolute(input.path)) {
    throw new RepaError(
      'invalid_request',
      `${JSON.stringify(input.path)} is not an absolute path.`,
      {
        fix: 'Give the material by its absolute path (the CLI resolves a relative one).',
      },
    );
  }
  if (input.id !== undefined && (!MATERIAL_ID.test(input.id) || input.id === '__proto__')) {
    throw new RepaError(
      'invalid_request',
      `The material id ${JSON.stringify(input.id)} is not allowed.`,
      {
        fix: 'Use 1–100 letters, digits, "-" or "_".',
      },
    );
  }
  let path: string;
  let found: Awaited<ReturnType<typeof typeOf>>;
  try {
    path = await realpath(input.path);
    // The file at its real path is what is granted: read from there on, never through a link.
    found = await typeOf(path, input.path);
    if (found === 'vanished') throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
  } catch (error) {
    if (RepaError.isInstance(error)) throw error;
    const missing = errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR';
    throw new RepaError(
      missing ? 'not_found' : 'invalid_request',
      missing
        ? `There is no file at ${input.path}.`
        : `${input.path} is not a regular file (a folder, FIFO, device or socket).`,
      { fix: 'Grant one regular file per material.', details: { path: input.path } },
    );
  }
  const { type, size } = found;
  if (typeof type !== 'string')
    throw unsupportedContent(JSON.stringify(input.path), type.unsupported);
  const spaces = input.spaces === null ? undefined : [...new Set(input.spaces)].sort();
  let id = input.id;
  const revision = await updateGrants(appDirectory, input.expectedRevision, (materials) => {
    if (id !== undefined && Object.hasOwn(materials, id)) {
      const existing = materials[id] as MaterialGrant;
      if (existing.path !== path) {
        throw new RepaError(
          'invalid_request',
          `The material id ${id} is granted to another file (${existing.path}).`,
          { fix: `Choose another id, or remove it first (repa materials remove ${id}).` },
        );
      }
      // The same file again: its title and type are brought up to date, its spaces joined.
      const joined =
        existing.spaces === undefined || spaces === undefined
          ? undefined
          : [...new Set([...existing.spaces, ...spaces])].sort();
      materials[id] = {
        ...existing,
        ...(input.title === undefined ? {} : { title: input.title }),
        type,
        bytes: size,
        spaces: joined,
      };
      if (joined === undefined) delete materials[id]?.spaces;
      return;
    }
    if (id === undefined) {
      const stem = idFrom(path);
      id = stem;
      for (let n = 2; Object.hasOwn(materials, id); n++) id = `${stem}-${n}`;
    }
    materials[id] = {
      path,
      ...(spaces === undefined ? {} : { spaces }),
      ...(input.title === undefined ? {} : { title: input.title }),
      type,
      bytes: size,
      addedAt: new Date().toISOString(),
    };
  });
  const granted = (await readGrantsFile(appDirectory)).document.materials[id as string];
  return { revision, material: await describe(id as string, granted as MaterialGrant) };
}

/**
 * Withdraws the grant of material `id` (nothing is deleted but the grant); `removed: false` when
 * there was none. Revision-checked like {@link addMaterial}.
 */
export async function removeMaterial(
  appDirectory: string,
  id: string,
  expectedRevision?: string | null,
): Promise<{ revision: string | null; removed: boolean }> {
  let removed = false;
  const revision = await updateGrants(appDirectory, expectedRevision, (materials) => {
    if (!Object.hasOwn(materials, id)) return false;
    delete materials[id];
    removed = true;
  });
  return { revision: removed ? revision : (await readGrantsFile(appDirectory)).revision, removed };
}

/**
 * Read-modify-write of the grants file under its cross-process lock (`<file>.lock`), as settings
 * files are written: the file is read and checked (a damaged one is `data_corrupt` and never
 * reset), `stale_version` unless it is at `expectedRevision` (when given), then `change` edits the
 * grants (returning `false`: nothing to write) and the file is replaced atomically (temp file,
 * fsync, rename, folder fsync). Returns the new revision.
 */
async function updateGrants(
  appDirectory: string,
  expectedRevision: string | null | undefined,
  change: (materials: Record<string, MaterialGrant>) => false | undefined,
  fs: FsLayer = nodeFsLayer,
): Promise<string> {
  const file = join(appDirectory, CONTENT_ACCESS_FILE);
  await fs.mkdir(appDirectory).catch((error: unknown) => {
    if (errnoCode(error) !== 'EEXIST') throw error;
  });
  const lock = await acquireFileLock(file, {
    staleMs: LOCK_STALE_MS,
    busy: (cause) =>
      new RepaError('busy', `The content access file ${file} stayed locked by another process.`, {
        fix: `Retry shortly. If no Repa process is running, remove the folder ${file}.lock.`,
        cause,
      }),
    lost: (why, cause) =>
      new RepaError('busy', `Lost the lock of ${file} before writing: ${why}.`, {
        fix: 'Nothing was written; retry.',
        cause,
      }),
  });
  try {
    const current = await readGrantsFile(appDirectory, fs);
    if (expectedRevision !== undefined && current.revision !== expectedRevision) {
      throw new RepaError(
        'stale_version',
        `The content access file ${file} changed since it was read (revision ${current.revision ?? 'none'}).`,
        {
          fix: 'List the materials again (repa materials list), then retry with the current revision.',
          details: { revision: current.revision },
        },
      );
    }
    if (change(current.document.materials) === false) return current.revision ?? '';
    const text = `${JSON.stringify(current.document, null, 2)}\n`;
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.length > MAX_GRANTS_BYTES) {
      throw new RepaError(
        'invalid_request',
        `The content access file would pass ${MAX_GRANTS_BYTES} bytes.`,
        {
          fix: 'Remove materials no longer used (repa materials remove ID).',
        },
      );
    }
    // A grants file that is a symlink (a dotfiles setup) stays one: its target is replaced.
    const target = await fs.realpath(file).catch(() => file);
    await lock.assertHeld();
    await replaceFile(target, bytes, { fs });
    return createHash('sha256').update(bytes).digest('hex');
  } finally {
    await lock.release().catch(() => undefined);
  }
}
