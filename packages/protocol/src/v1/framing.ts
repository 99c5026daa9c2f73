import { RepaError } from '../errors/repa-error.js';

/** Default limit of one newline-delimited JSON frame: 8 MiB. */
export const DEFAULT_MAX_FRAME_BYTES = 8 * 1024 * 1024;

/** Encodes one message as a newline-delimited JSON frame. */
export function encodeFrame(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}

/**
 * One decoded frame: the parsed value, or the error of a malformed line. A `fatal` error
 * (`message_too_large`) ends the stream: nothing after it in the same push is decoded.
 */
export type DecodedFrame =
  | { ok: true; value: unknown }
  | { ok: false; error: RepaError; fatal?: boolean };

/**
 * Splits a byte stream into newline-delimited JSON frames with bounded memory.
 * Contract: a frame longer than `maxFrameBytes` yields a fatal `message_too_large` frame (after
 * the frames completed before it) as soon as the limit is passed, before the rest of it is
 * buffered; a malformed line yields an `invalid_request` frame. `push` never throws.
 */
export class FrameDecoder {
  readonly #maxFrameBytes: number;
  #chunks: Buffer[] = [];
  #buffered = 0;

  constructor(options: { maxFrameBytes?: number } = {}) {
    this.#maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  }

  /** Bytes of an unfinished frame held right now. */
  get pendingBytes(): number {
    return this.#buffered;
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
      this.#append(chunk.subarray(start, newline));
      const line = Buffer.concat(this.#chunks).toString('utf8');
      this.#chunks = [];
      this.#buffered = 0;
      start = newline + 1;
      if (line.trim() === '') continue;
      frames.push(parseFrame(line));
    }
    this.#append(chunk.subarray(start));
  }

  #append(part: Buffer): void {
    if (part.length === 0) return;
    this.#buffered += part.length;
    if (this.#buffered > this.#maxFrameBytes) {
      this.#chunks = [];
      this.#buffered = 0;
      throw new RepaError(
        'message_too_large',
        `A message exceeded the limit of ${this.#maxFrameBytes} bytes.`,
        { details: { limit: this.#maxFrameBytes } },
      );
    }
    this.#chunks.push(part);
  }
}

function parseFrame(line: string): DecodedFrame {
  try {
    return { ok: true, value: JSON.parse(line) };
  } catch (cause) {
    return {
      ok: false,
      error: new RepaError('invalid_request', `Malformed JSON: ${(cause as Error).message}`, {
        fix: 'Send one JSON-RPC 2.0 message per line, UTF-8 encoded.',
      }),
    };
  }
}
