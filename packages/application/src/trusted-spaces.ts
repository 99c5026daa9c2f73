import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errnoCode, ioError, replaceFile, SerialQueue } from '@repa/durable-fs';
import { RepaError, type TrustReason } from '@repa/protocol';
import { trustReasonSchema } from '@repa/protocol/schemas';
import { z } from 'zod';

const FILE_NAME = 'trusted-spaces.json';

const entrySchema = z.strictObject({ root: z.string().min(1), reason: trustReasonSchema });

const documentSchema = z.union([
  z.strictObject({ version: z.literal(1), spaces: z.array(z.string().min(1)) }),
  z.strictObject({ version: z.literal(2), spaces: z.array(entrySchema) }),
]);

type Entry = z.infer<typeof entrySchema>;

/**
 * How long after its last change a file's state is trusted to reveal the next change: file times
 * come from a coarse clock, so a same-size edit within one tick could keep them.
 */
const SETTLED_MS = 1_000;

/**
 * The file's identity and state (a replacement or an edit changes it), or undefined when it is
 * missing or changed too recently for its state to tell.
 */
function settledRevisionOf(path: string): string | undefined {
  try {
    const stats = statSync(path, { bigint: true });
    if (Date.now() - Number(stats.ctimeNs / 1_000_000n) < SETTLED_MS) return undefined;
    return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
  } catch {
    return undefined;
  }
}

/**
 * The spaces the learner trusts (spec R13), kept in the application directory as
 * `trusted-spaces.json` (`{"version":2,"spaces":[{"root","reason"}]}`; version 1, a list of roots
 * the user trusted, is still read), replaced atomically; writes are one at a time. `reason` is
 * `user` (`repa trust`) or `created` (Repa made a plain folder a space). A damaged file trusts
 * nothing and is never overwritten (`data_corrupt` until it is removed). The file is parsed again
 * only when it changed (every run's submit asks).
 */
export class TrustedSpaces {
  readonly #path: string;
  readonly #writes = new SerialQueue();
  /** The entries last read, with the file's revision they were read at. */
  #cache: { revision: string; entries: Entry[] } | undefined;

  constructor(appDirectory: string) {
    this.#path = join(appDirectory, FILE_NAME);
  }

  /** Why `space` (a real path) is trusted, or undefined when it is not (or the file is damaged). */
  async reasonOf(space: string): Promise<TrustReason | undefined> {
    try {
      return (await this.#read()).find((entry) => entry.root === space)?.reason;
    } catch {
      return undefined;
    }
  }

  /** Whether `space` (a real path) is trusted; false when the file is missing or damaged. */
  async isTrusted(space: string): Promise<boolean> {
    return (await this.reasonOf(space)) !== undefined;
  }

  /**
   * Trusts `space` for `reason`, or distrusts it (`reason` undefined); answers whether it was
   * trusted before. A space already trusted keeps its first reason.
   */
  async set(space: string, reason: TrustReason | undefined): Promise<boolean> {
    return this.#writes.run(this.#path, async () => {
      const entries = await this.#read();
      const was = entries.some((entry) => entry.root === space);
      if (was !== (reason !== undefined)) {
        const next =
          reason === undefined
            ? entries.filter((entry) => entry.root !== space)
            : [...entries, { root: space, reason }].sort((a, b) => a.root.localeCompare(b.root));
        const text = `${JSON.stringify({ version: 2, spaces: next }, null, 2)}\n`;
        await replaceFile(this.#path, Buffer.from(text), { mode: 0o600 });
        this.#cache = undefined;
      }
      return was;
    });
  }

  async #read(): Promise<Entry[]> {
    // Taken before the read: a change during it leaves a revision that no longer matches.
    const revision = settledRevisionOf(this.#path);
    if (revision !== undefined && this.#cache?.revision === revision) return this.#cache.entries;
    let text: string;
    try {
      text = await readFile(this.#path, 'utf8');
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return [];
      throw ioError(error, `Reading ${this.#path}`);
    }
    let parsed: z.infer<typeof documentSchema> | undefined;
    try {
      parsed = documentSchema.parse(JSON.parse(text));
    } catch {
      parsed = undefined;
    }
    if (!parsed) {
      throw new RepaError('data_corrupt', `${this.#path} is damaged; no space is trusted.`, {
        fix: `Remove ${this.#path}, then trust the spaces again with repa trust.`,
      });
    }
    const entries: Entry[] =
      parsed.version === 1
        ? parsed.spaces.map((root) => ({ root, reason: 'user' }))
        : parsed.spaces;
    if (revision !== undefined) this.#cache = { revision, entries };
    return entries;
  }
}
