import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { createFile, errnoCode } from '@repa/durable-fs';
import {
  RepaError,
  RUN_IMAGE_MAX_BYTES,
  type RUN_IMAGE_MIME_TYPES,
  type RunImage,
  type RunInput,
} from '@repa/protocol';

/** An inline image as the ledger keeps it: its bytes are a file named by their sha256. */
export interface StoredImage {
  kind: 'data';
  /** The image's MIME type. */
  mimeType: (typeof RUN_IMAGE_MIME_TYPES)[number];
  /** The sha256 of the bytes, hex: the file's name. */
  sha256: string;
  /** The number of bytes. */
  bytes: number;
}

/** A run input as the ledger keeps it: inline images as {@link StoredImage}s. */
export type StoredInput = Omit<RunInput, 'images'> & { images?: (RunImage | StoredImage)[] };

const HASH = /^[0-9a-f]{64}$/;

/** The sha256 of base64 image data, hex. */
function hashOf(data: string): string {
  return createHash('sha256').update(Buffer.from(data, 'base64')).digest('hex');
}

/**
 * The bytes of the inline images of runs, each stored once as a file named by its sha256 in the
 * app directory (never in the ledger itself); the ledger lists which runs use which image.
 */
export class RunImages {
  /** The folder of the image files. */
  readonly directory: string;
  /** Images being stored for a request not recorded yet: never swept. */
  readonly #pinned = new Map<string, number>();

  constructor(directory: string) {
    this.directory = directory;
  }

  /**
   * Writes the bytes of each inline image of `images` once (an existing file of the same hash is
   * kept) and keeps them from {@link sweep} until the returned release is called.
   */
  async store(images: RunInput['images']): Promise<() => void> {
    const hashes: string[] = [];
    for (const image of images ?? []) {
      if (image.kind !== 'data') continue;
      const hash = hashOf(image.data);
      hashes.push(hash);
      this.#pinned.set(hash, (this.#pinned.get(hash) ?? 0) + 1);
    }
    const release = () => {
      for (const hash of hashes.splice(0)) {
        const count = (this.#pinned.get(hash) ?? 1) - 1;
        if (count > 0) this.#pinned.set(hash, count);
        else this.#pinned.delete(hash);
      }
    };
    try {
      for (const image of images ?? []) {
        if (image.kind === 'data') await this.#write(hashOf(image.data), image.data);
      }
    } catch (error) {
      release();
      throw error;
    }
    return release;
  }

  /**
   * An input as the ledger keeps it: each inline image without its bytes, named by their hash
   * (stored with {@link store} first), and the hashes it uses.
   */
  storedInput(input: RunInput): { input: StoredInput; hashes: Set<string> } {
    const hashes = new Set<string>();
    const images = input.images?.map((image): StoredImage | RunImage => {
      if (image.kind !== 'data') return image;
      const stored: StoredImage = {
        kind: 'data',
        mimeType: image.mimeType,
        sha256: hashOf(image.data),
        bytes: Buffer.byteLength(image.data, 'base64'),
      };
      hashes.add(stored.sha256);
      return stored;
    });
    return { input: { ...input, ...(images ? { images } : {}) }, hashes };
  }

  /** An input the ledger kept, its inline images' bytes read back (an older row holds them). */
  restoredInput(input: StoredInput): RunInput {
    if (!input.images) return input as RunInput;
    const images = input.images.map((image): RunImage => {
      if (!('sha256' in image)) return image;
      return { kind: 'data', mimeType: image.mimeType, data: this.read(image) };
    });
    return { ...input, images };
  }

  /** The base64 bytes of a stored image; `data_corrupt` when its file is missing or altered. */
  read(image: StoredImage): string {
    const path = join(this.directory, image.sha256);
    let bytes: Buffer;
    try {
      if (statSync(path).size > RUN_IMAGE_MAX_BYTES) throw new Error('too large');
      bytes = readFileSync(path);
    } catch (error) {
      throw new RepaError('data_corrupt', `The stored image ${path} cannot be read.`, {
        cause: error,
        details: { path, errno: errnoCode(error) },
      });
    }
    if (createHash('sha256').update(bytes).digest('hex') !== image.sha256) {
      throw new RepaError('data_corrupt', `The stored image ${path} does not hold its bytes.`, {
        details: { path },
      });
    }
    return bytes.toString('base64');
  }

  /** Deletes the image files no run uses (`used`), except those being stored now. */
  sweep(used: ReadonlySet<string>): number {
    let removed = 0;
    let names: string[];
    try {
      names = readdirSync(this.directory);
    } catch {
      return 0;
    }
    for (const name of names) {
      if (!HASH.test(name) || used.has(name) || this.#pinned.has(name)) continue;
      try {
        unlinkSync(join(this.directory, name));
        removed += 1;
      } catch {
        // Gone already, or not ours to remove: the next sweep tries again.
      }
    }
    return removed;
  }

  async #write(hash: string, data: string): Promise<void> {
    mkdirSync(this.directory, { recursive: true, mode: 0o700 });
    try {
      await createFile(join(this.directory, hash), Buffer.from(data, 'base64'));
    } catch (error) {
      // Stored before: the name is the hash of the bytes.
      if (RepaError.isInstance(error) && error.details?.errno === 'EEXIST') return;
      throw error;
    }
  }
}
