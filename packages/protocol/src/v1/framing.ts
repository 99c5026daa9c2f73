import { RepaError } from './errors/repa-error.js';

/** Default limit of one newline-delimited JSON frame: 8 MiB. */
export const DEFAULT_MAX_FRAME_BYTES = 8 * 1024 * 1024;

/**
 * The deepest nesting of arrays and objects a v1 server accepts in one message, the message
 * object itself counting as level 1 (so `params` may nest 127 levels).
 */
export const MAX_MESSAGE_DEPTH = 128;

/** Keys a v1 server refuses at any depth: they would reach or replace an object's prototype. */
const UNSAFE_KEYS = ['__proto__', 'constructor'] as const;

/** Options of a {@link FrameDecoder}. */
export interface FrameDecoderOptions {
  /** Largest frame in bytes; default {@link DEFAULT_MAX_FRAME_BYTES}. */
  maxFrameBytes?: number;
  /** Refuse a frame nesting arrays and objects deeper than this (checked before parsing). Default: no limit. */
  maxDepth?: number;
  /** Refuse a frame with a `__proto__` or `constructor` key at any depth. Default false. */
  refuseUnsafeKeys?: boolean;
}

/** Encodes one message as a newline-delimited JSON frame. */
export function encodeFrame(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}

/**
 * One decoded frame: the parsed value, or the error of a malformed or refused line (with the parsed
 * `value` when the line was JSON, so its request id can be answered). A `fatal` error
 * (`message_too_large`) ends the stream: nothing after it in the same push is decoded;
 * `parseError` marks a line that is not UTF-8 JSON (JSON-RPC's -32700).
 */
export type DecodedFrame =
  | { ok: true; value: unknown }
  | { ok: false; error: RepaError; fatal?: boolean; parseError?: boolean; value?: unknown };

/**
 * A piece of a read shorter than this, or one that would pin a buffer more than twice its size, is
 * copied into a block of the decoder's own instead of kept as a view of the read: a client that
 * sends a frame one byte per read must not make the decoder hold one buffer (and its overhead,
 * some hundred bytes) per byte.
 */
const SMALL_PIECE_BYTES = 4 * 1024;
/** The size of a block small pieces are copied into. */
const BLOCK_BYTES = 16 * 1024;

/**
 * Splits a byte stream into newline-delimited JSON frames with bounded memory.
 * Contract: a frame longer than `maxFrameBytes` yields a fatal `message_too_large` frame (after
 * the frames completed before it) as soon as the limit is passed, before the rest of it is
 * buffered; a line that is not valid UTF-8, not JSON, nested deeper than `maxDepth` or (with
 * `refuseUnsafeKeys`) holding an unsafe key yields an `invalid_request` frame. No check recurses,
 * so no input can overflow the stack. `push` never throws. The memory an unfinished frame pins is
 * {@link FrameDecoder.heldBytes}: at most twice its bytes plus one block.
 */
export class FrameDecoder {
  readonly #maxFrameBytes: number;
  readonly #maxDepth: number;
  readonly #refuseUnsafeKeys: boolean;
  /** The unfinished frame: views of large reads and filled blocks, in order. */
  #chunks: Buffer[] = [];
  /** The block small pieces are copied into now, and how much of it is used. */
  #block: Buffer | undefined;
  #blockUsed = 0;
  #buffered = 0;
  #held = 0;

  constructor(options: FrameDecoderOptions = {}) {
    this.#maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    this.#maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
    this.#refuseUnsafeKeys = options.refuseUnsafeKeys ?? false;
  }

  /** Bytes of an unfinished frame held right now. */
  get pendingBytes(): number {
    return this.#buffered;
  }

  /**
   * Bytes of memory the unfinished frame pins right now: the whole buffer of every read it keeps a
   * view of, and the size of every block it copied small pieces into.
   */
  get heldBytes(): number {
    return this.#held;
  }

  /** Drops the unfinished frame held now (e.g. when its connection is refused). */
  reset(): void {
    this.#chunks = [];
    this.#block = undefined;
    this.#blockUsed = 0;
    this.#buffered = 0;
    this.#held = 0;
  }

  /** Feeds bytes; returns every frame they complete. */
  push(chunk: Buffer): DecodedFrame[] {
    const frames: DecodedFrame[] = [];
    try {
      this.#split(chunk, frames);
    } catch (error) {
      if (!RepaError.isInstance(error)) throw error;
      frames.push({ ok: false, error, fatal: true });
    }
    return frames;
  }

  #split(chunk: Buffer, frames: DecodedFrame[]): void {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      const line = chunk.subarray(start, newline);
      this.#count(line.length);
      const bytes = this.#take(line);
      start = newline + 1;
      const frame = this.#decode(bytes);
      if (frame !== undefined) frames.push(frame);
    }
    this.#append(chunk.subarray(start));
  }

  /** Counts `bytes` more of the current frame; past the limit, drops it and throws. */
  #count(bytes: number): void {
    this.#buffered += bytes;
    if (this.#buffered > this.#maxFrameBytes) {
      this.reset();
      throw new RepaError(
        'message_too_large',
        `A message exceeded the limit of ${this.#maxFrameBytes} bytes.`,
        { details: { limit: this.#maxFrameBytes } },
      );
    }
  }

  /**
   * The unfinished frame with its last piece (already counted) as one buffer, and a reset. A frame
   * within one read is the read itself, not a copy.
   */
  #take(last: Buffer): Buffer {
    this.#closeBlock(false);
    const bytes =
      this.#chunks.length === 0 ? last : Buffer.concat([...this.#chunks, last], this.#buffered);
    this.reset();
    return bytes;
  }

  #append(part: Buffer): void {
    if (part.length === 0) return;
    this.#count(part.length);
    const pinned = part.buffer.byteLength;
    if (part.length >= SMALL_PIECE_BYTES && pinned <= 2 * part.length) {
      this.#closeBlock();
      this.#chunks.push(part);
      this.#held += pinned;
      return;
    }
    for (let offset = 0; offset < part.length; ) {
      if (this.#block === undefined) {
        this.#block = Buffer.allocUnsafeSlow(BLOCK_BYTES);
        this.#held += BLOCK_BYTES;
      }
      const copied = part.copy(this.#block, this.#blockUsed, offset);
      this.#blockUsed += copied;
      offset += copied;
      if (this.#blockUsed === BLOCK_BYTES) this.#closeBlock();
    }
  }

  /**
   * Ends the current block: full, or a view of a large read comes next (`shrink`: a block less than
   * half used is then copied to its exact size, so it pins no more than it holds), or the frame is
   * complete.
   */
  #closeBlock(shrink = true): void {
    const block = this.#block;
    if (block === undefined) return;
    const used = this.#blockUsed;
    if (shrink && used * 2 < BLOCK_BYTES) {
      const exact = Buffer.allocUnsafeSlow(used);
      block.copy(exact, 0, 0, used);
      this.#chunks.push(exact);
      this.#held += used - BLOCK_BYTES;
    } else this.#chunks.push(block.subarray(0, used));
    this.#block = undefined;
    this.#blockUsed = 0;
  }

  /** One complete line as a frame; undefined for a blank line. */
  #decode(bytes: Buffer): DecodedFrame | undefined {
    let line: string;
    try {
      line = strictUtf8.decode(bytes);
    } catch {
      const offset = invalidUtf8Offset(bytes);
      return {
        ...refused(`The frame is not valid UTF-8 (byte ${offset}).`, SEND_JSON_LINES, { offset }),
        parseError: true,
      };
    }
    if (line.trim() === '') return undefined;
    if (nestingExceeds(line, this.#maxDepth)) {
      return refused(
        `The message nests arrays and objects deeper than the limit of ${this.#maxDepth} levels.`,
        `Send values nested at most ${this.#maxDepth} levels deep, counting the message itself.`,
        { limit: this.#maxDepth },
      );
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (cause) {
      return {
        ...refused(`Malformed JSON: ${(cause as Error).message}`, SEND_JSON_LINES),
        parseError: true,
      };
    }
    const unsafePath = this.#refuseUnsafeKeys ? findUnsafeKey(value, line) : undefined;
    if (unsafePath !== undefined) {
      return {
        ...refused(
          `The message has the key ${unsafePath}; __proto__ and constructor are refused.`,
          'Rename that key: no object in a request may have a __proto__ or constructor key.',
          { path: unsafePath },
        ),
        value,
      };
    }
    return { ok: true, value };
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

const SEND_JSON_LINES = 'Send one JSON-RPC 2.0 message per line, UTF-8 encoded.';

function refused(
  message: string,
  fix: string,
  details?: Record<string, unknown>,
): Extract<DecodedFrame, { ok: false }> {
  return {
    ok: false,
    error: new RepaError('invalid_request', message, {
      fix,
      ...(details === undefined ? {} : { details }),
    }),
  };
}

/**
 * The byte offset of the first invalid UTF-8 sequence in `bytes` (which must hold one): the lossy
 * decoding agrees with the bytes up to there, where it has a U+FFFD the bytes do not encode.
 */
function invalidUtf8Offset(bytes: Buffer): number {
  const lossy = bytes.toString('utf8');
  let offset = 0;
  let from = 0;
  for (let index = lossy.indexOf('\uFFFD'); index !== -1; index = lossy.indexOf('\uFFFD', from)) {
    offset += Buffer.byteLength(lossy.slice(from, index));
    if (bytes[offset] !== 0xef || bytes[offset + 1] !== 0xbf || bytes[offset + 2] !== 0xbd) {
      return offset;
    }
    offset += 3;
    from = index + 1;
  }
  return offset;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** True when `text` opens more than `maxDepth` arrays and objects at once (strings skipped). */
function nestingExceeds(text: string, maxDepth: number): boolean {
  if (maxDepth === Number.POSITIVE_INFINITY) return false;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === BACKSLASH) index++;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) inString = true;
    else if (char === OPEN_BRACKET || char === OPEN_BRACE) {
      if (++depth > maxDepth) return true;
    } else if (char === CLOSE_BRACKET || char === CLOSE_BRACE) depth--;
  }
  return false;
}

/** The path (`params.input.__proto__`) of the first unsafe key in `value` parsed from `text`. */
function findUnsafeKey(value: unknown, text: string): string | undefined {
  // An unsafe key is in the text as written, or spelt with \u escapes (the only JSON escapes that
  // yield letters or `_`): without either, no walk is needed.
  if (!UNSAFE_KEYS.some((key) => text.includes(key)) && !text.includes('\\u')) return undefined;
  // A fast pass without paths; the slower one that tracks them runs only for a refused message.
  return hasUnsafeKey(value) ? pathOfUnsafeKey(value) : undefined;
}

/** Whether any object in `value` has an unsafe own key; walked with an explicit stack. */
function hasUnsafeKey(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      for (const child of node) if (typeof child === 'object' && child !== null) stack.push(child);
      continue;
    }
    for (const key of UNSAFE_KEYS) if (Object.hasOwn(node, key)) return true;
    for (const key of Object.keys(node)) {
      const child: unknown = (node as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null) stack.push(child);
    }
  }
  return false;
}

interface Visit {
  value: object;
  key: string;
  parent: Visit | undefined;
}

/** The path of the first unsafe key, walked with an explicit stack of visits linked to their parent. */
function pathOfUnsafeKey(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const stack: Visit[] = [{ value, key: '', parent: undefined }];
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    const node = visit.value;
    if (!Array.isArray(node)) {
      for (const key of UNSAFE_KEYS) {
        if (Object.hasOwn(node, key)) return pathOf({ value: node, key, parent: visit });
      }
    }
    for (const [key, child] of Object.entries(node)) {
      if (typeof child === 'object' && child !== null) {
        stack.push({ value: child, key, parent: visit });
      }
    }
  }
  return undefined;
}

function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | undefined = visit; at?.parent !== undefined; at = at.parent)
    keys.push(at.key);
  return keys.reverse().join('.');
}
