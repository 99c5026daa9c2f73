import { opendirSync } from 'node:fs';

/**
 * The bytes of the names of one folder. A name is read as text (as fast as a walk needs); one
 * holding U+FFFD may stand for bytes that are not UTF-8, so the folder's first `count` names (those
 * the walk read) are read again as bytes (`batch` at a time), once, and handed out in order (two
 * such names can read as the same text).
 */
export class RawNames {
  private byText: Map<string, Buffer[]> | undefined;

  constructor(
    private readonly folder: string,
    private readonly count: number,
    private readonly batch: number,
  ) {}

  /** The entry `name` as the folder's text listing gave it: its bytes, or `name` when it is them. */
  of(name: string): string | Buffer {
    if (!name.includes('\uFFFD')) return name;
    if (this.byText === undefined) {
      this.byText = new Map();
      const names: Buffer[] = [];
      try {
        const dir = opendirSync(this.folder, {
          bufferSize: this.batch,
          encoding: 'buffer' as BufferEncoding,
        });
        try {
          for (let dirent = dir.readSync(); dirent !== null && names.length < this.count; ) {
            names.push(dirent.name as unknown as Buffer);
            dirent = dir.readSync();
          }
        } finally {
          dir.closeSync();
        }
      } catch {
        // Gone meanwhile: the text stands.
      }
      for (const bytes of names.sort(Buffer.compare)) {
        const text = bytes.toString('utf8');
        this.byText.set(text, [...(this.byText.get(text) ?? []), bytes]);
      }
    }
    return this.byText.get(name)?.shift() ?? name;
  }
}
