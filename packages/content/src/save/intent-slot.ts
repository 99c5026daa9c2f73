import { constants } from 'node:fs';
import { join } from 'node:path';
import type { FsHandle, FsLayer } from '@repa/durable-fs';
import { logChecksum, openOwnFile } from '../files/index.js';
import { MAX_RECORD_BYTES } from './intent-record.js';
import { OPERATION_ID } from './save-planner.js';

/** The file of the slot in `.repa/`. */
export const SLOT_NAME = 'intent-slot';
/** Fixed size of the header line at the start of the slot. */
const HEADER_BYTES = 256;
const MAGIC = 'repa.intent-slot/1';
/** A slot that held a record larger than this is cut back to its header once cleared. */
const KEEP_BYTES = 1024 * 1024;
const OPEN_SLOT =
  constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** What a slot holds: nothing, one record (its operation id and JSON text), or damaged bytes. */
export type SlotContent =
  | { kind: 'empty' }
  | { kind: 'record'; operationId: string; text: string }
  | { kind: 'damaged'; operationId: string | undefined; bytes: Buffer };

function header(fields: string): Buffer {
  const line = Buffer.alloc(HEADER_BYTES, 0x20);
  line.write(fields, 0, 'latin1');
  line[HEADER_BYTES - 1] = 0x0a;
  return line;
}

const EMPTY_HEADER = header(`${MAGIC} 0`);

/**
 * The intent record of a one-change save, written in place into `.repa/intent-slot` (one `pwrite`,
 * no file created, renamed or removed) and cleared the same way when the save is done. Saves are
 * one at a time per space (the space lock), so one slot serves every process; recovery turns a
 * record it finds there into `.repa/intents/<operationId>.json` (README, "The save protocol").
 *
 * Layout: a 256-byte header line `repa.intent-slot/1 <length> <crc32> <operationId> <bytes>`
 * (length 0: empty), then `length` bytes: the record's JSON without its one change's `content`,
 * followed by those new bytes raw (`<bytes>` of them; `-` for a delete). A body that does not match
 * its checksum is a torn write.
 */
export class IntentSlot {
  private bodyBytes = 0;

  private constructor(
    private readonly fs: FsLayer,
    private readonly handle: FsHandle,
  ) {}

  /**
   * Opens (creating it empty if missing) the slot in `repaDir`, a real folder the caller checked.
   * It must be a plain file with one link (`space_unsafe` otherwise: never written through).
   */
  static async open(fs: FsLayer, repaDir: string): Promise<IntentSlot> {
    const { handle } = await openOwnFile(
      fs,
      join(repaDir, SLOT_NAME),
      OPEN_SLOT,
      'the intent slot',
    );
    return new IntentSlot(fs, handle);
  }

  /** What the slot holds now; a record comes back as the JSON text of its `.repa/intents/` file. */
  async read(): Promise<SlotContent> {
    const head = await this.fs.readAt(this.handle, HEADER_BYTES, 0);
    if (head.length === 0) return { kind: 'empty' };
    const [magic, length, sum, operationId, raw] = head.toString('latin1').trim().split(' ');
    const known =
      operationId !== undefined && OPERATION_ID.test(operationId) ? operationId : undefined;
    if (head.length < HEADER_BYTES || magic !== MAGIC || !/^\d{1,15}$/u.test(length ?? '')) {
      return { kind: 'damaged', operationId: undefined, bytes: head };
    }
    const size = Number(length);
    if (size === 0) return { kind: 'empty' };
    // A length the file cannot hold, or no save writes (spec R74), is damage, never an allocation.
    const fileBytes = Number((await this.fs.fstat(this.handle)).size);
    if (size > MAX_RECORD_BYTES || HEADER_BYTES + size > fileBytes) {
      // Whatever the file holds past the header goes when the slot is cleared.
      this.bodyBytes = Math.max(this.bodyBytes, fileBytes - HEADER_BYTES);
      return { kind: 'damaged', operationId: known, bytes: head };
    }
    const body = await this.fs.readAt(this.handle, size, HEADER_BYTES);
    this.bodyBytes = Math.max(this.bodyBytes, body.length);
    const damaged = {
      kind: 'damaged',
      operationId: known,
      bytes: Buffer.concat([head, body]),
    } as const;
    const rawBytes = raw === '-' ? null : /^\d{1,15}$/u.test(raw ?? '') ? Number(raw) : undefined;
    if (body.length !== size || sum !== logChecksum(body) || known === undefined) return damaged;
    if (rawBytes === undefined || (rawBytes ?? 0) > size) return damaged;
    const metaEnd = size - (rawBytes ?? 0);
    try {
      const record = JSON.parse(body.subarray(0, metaEnd).toString('utf8')) as {
        changes?: { content?: string | null }[];
      };
      const [change] = record.changes ?? [];
      if (change === undefined || record.changes?.length !== 1) return damaged;
      change.content = rawBytes === null ? null : body.subarray(metaEnd).toString('base64');
      return { kind: 'record', operationId: known, text: JSON.stringify(record) };
    } catch {
      return damaged;
    }
  }

  /**
   * Writes the record of a one-change save over whatever the slot held (one `pwrite`, no fsync):
   * `record` is its JSON without the change's content, `content` the new bytes (`null`: a delete).
   */
  async write(operationId: string, record: string, content: Uint8Array | null): Promise<void> {
    const metaBytes = Buffer.byteLength(record, 'utf8');
    const size = metaBytes + (content?.length ?? 0);
    const bytes = Buffer.allocUnsafe(HEADER_BYTES + size);
    bytes.write(record, HEADER_BYTES, 'utf8');
    if (content !== null) bytes.set(content, HEADER_BYTES + metaBytes);
    const body = bytes.subarray(HEADER_BYTES);
    const fields = `${MAGIC} ${size} ${logChecksum(body)} ${operationId} ${content === null ? '-' : content.length}`;
    header(fields).copy(bytes, 0);
    this.bodyBytes = Math.max(this.bodyBytes, size);
    await this.fs.write(this.handle, bytes, 0);
  }

  /** Marks the slot empty (no fsync unless `sync`); a slot that held a large record is cut back. */
  async clear(sync = false): Promise<void> {
    await this.fs.write(this.handle, EMPTY_HEADER, 0);
    if (this.bodyBytes > KEEP_BYTES) {
      await this.fs.truncate(this.handle, HEADER_BYTES);
      this.bodyBytes = 0;
    }
    if (sync) await this.fs.sync(this.handle);
  }

  /** Closes the slot's file. */
  async close(): Promise<void> {
    await this.fs.close(this.handle).catch(() => undefined);
  }
}
