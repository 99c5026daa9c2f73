import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errnoCode, ioError, replaceFile, SerialQueue } from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';
import { z } from 'zod';

const FILE_NAME = 'trusted-spaces.json';

const documentSchema = z.strictObject({
  version: z.literal(1),
  spaces: z.array(z.string().min(1)),
});

/**
 * The spaces whose project instruction files the user trusts (`repa trust`), kept in the
 * application directory as `trusted-spaces.json` (`{"version":1,"spaces":[real paths]}`),
 * replaced atomically; writes are one at a time. A damaged file trusts nothing and is never
 * overwritten (`data_corrupt` until it is removed).
 */
export class TrustedSpaces {
  readonly #path: string;
  readonly #writes = new SerialQueue();

  constructor(appDirectory: string) {
    this.#path = join(appDirectory, FILE_NAME);
  }

  /** Whether `space` (a real path) is trusted; false when the file is missing or damaged. */
  async isTrusted(space: string): Promise<boolean> {
    try {
      return (await this.#read()).includes(space);
    } catch {
      return false;
    }
  }

  /** Trusts or distrusts `space` (a real path); answers whether it was trusted before. */
  async set(space: string, trusted: boolean): Promise<boolean> {
    return this.#writes.run(this.#path, async () => {
      const spaces = await this.#read();
      const was = spaces.includes(space);
      if (was !== trusted) {
        const next = trusted ? [...spaces, space].sort() : spaces.filter((s) => s !== space);
        const text = `${JSON.stringify({ version: 1, spaces: next }, null, 2)}\n`;
        await replaceFile(this.#path, Buffer.from(text), { mode: 0o600 });
      }
      return was;
    });
  }

  async #read(): Promise<string[]> {
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
    return parsed.spaces;
  }
}
