import type { FsLayer } from '@repa/durable-fs';
import { z } from 'zod';
import { dataCorrupt, problemOf, readDataFile } from '../files/index.js';

/** The largest index read back (spec R74; about 100 bytes per identity): larger is damage. */
const MAX_INDEX_BYTES = 32 * 1024 * 1024;

/** The bytes of an index file (`undefined`: none); `data_corrupt` past {@link MAX_INDEX_BYTES}. */
export function readIndexFile(fs: FsLayer, file: string): Promise<Buffer | undefined> {
  return readDataFile(fs, file, 'identity index', { maxBytes: MAX_INDEX_BYTES });
}

const indexFileSchema = z.object({
  format: z.literal('repa.identities/1'),
  /** The id of the identity log (`.repa/identities.log`) whose entries apply on top (absent: any log's). */
  log: z.string().optional(),
  /** identity (`repa:document/<id>`) → path relative to the space root. */
  objects: z.record(z.string(), z.string()),
});

/**
 * The identity index of one space (`.repa/identities.json`): which path each `repa:` identity
 * names now. Kept in memory; the store persists it atomically after each change.
 */
export class IdentityIndex {
  private readonly pathById = new Map<string, string>();
  private readonly idByPath = new Map<string, string>();
  /** The id of the identity log (`.repa/identities.log`) this index was written with, if any. */
  logId: string | undefined;

  /** Parses the index file's text; throws `data_corrupt` naming `file` when it is damaged. */
  static parse(text: string, file: string): IdentityIndex {
    let parsed: z.infer<typeof indexFileSchema>;
    try {
      parsed = indexFileSchema.parse(JSON.parse(text));
    } catch (error) {
      throw dataCorrupt('identity index', file, problemOf(error), {
        cause: error,
        note: 'Removing it forgets which repa: identity names which file.',
      });
    }
    const index = new IdentityIndex();
    for (const [identity, path] of Object.entries(parsed.objects)) index.set(identity, path);
    index.logId = parsed.log;
    return index;
  }

  /** The identity of the object at `path`, if it has one. */
  identityOf(path: string): string | undefined {
    return this.idByPath.get(path);
  }

  /** The path an identity names now, if known. */
  pathOf(identity: string): string | undefined {
    return this.pathById.get(identity);
  }

  /**
   * Points `identity` at `path`; any other identity of `path` is forgotten (its object was replaced).
   * Returns whether the index changed.
   */
  set(identity: string, path: string): boolean {
    const previousPath = this.pathById.get(identity);
    if (previousPath === path) return false;
    if (previousPath !== undefined) this.idByPath.delete(previousPath);
    const previousId = this.idByPath.get(path);
    if (previousId !== undefined) this.pathById.delete(previousId);
    this.pathById.set(identity, path);
    this.idByPath.set(path, identity);
    return true;
  }

  /** Forgets `identity`; returns whether it was known. */
  remove(identity: string): boolean {
    const path = this.pathById.get(identity);
    if (path === undefined) return false;
    this.idByPath.delete(path);
    this.pathById.delete(identity);
    return true;
  }

  /** The file text of the index, naming the identity log `logId`. */
  serialize(logId: string): string {
    const objects = Object.fromEntries([...this.pathById].sort(([a], [b]) => (a < b ? -1 : 1)));
    return `${JSON.stringify({ format: 'repa.identities/1', log: logId, objects }, null, 2)}\n`;
  }
}
