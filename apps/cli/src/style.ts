import { styleText } from 'node:util';

/** A format of `util.styleText`, e.g. `'red'` or `['bold', 'cyan']`. */
export type TextStyle = Parameters<typeof styleText>[0];

/**
 * `text` in `style` when `stream` shows colour: a terminal, unless `NO_COLOR` or `FORCE_COLOR=0`;
 * `FORCE_COLOR` colours a pipe too (Node's own rules, through `util.styleText`).
 */
export function paint(stream: NodeJS.WritableStream, style: TextStyle, text: string): string {
  try {
    return styleText(style, text, { stream });
  } catch {
    return text; // Not a Node stream (an embedding caller's writer): plain text.
  }
}

/** True when `stream` is a terminal: spinners, relative times, short ids and fitted tables. */
export function isTerminal(stream: NodeJS.WritableStream & { isTTY?: boolean }): boolean {
  return stream.isTTY === true;
}

/** The terminal's width, or undefined when `stream` is not a terminal. */
export function terminalWidth(
  stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number },
): number | undefined {
  return stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0
    ? stream.columns
    : undefined;
}

/** The frames of a spinner. */
export const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Elapsed time as `4s` or `1m 05s`. */
export function formatElapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return seconds < 60
    ? `${seconds}s`
    : `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s`;
}

/** Where a run printer shows what a run waits for (the model, a tool) and for how long. */
export interface WaitIndicator {
  /** Shows (or relabels) it; the elapsed time counts from `since` (default now). */
  start(label: string, since?: number): void;
  /** Takes it off the line about to be written (it shows again on its next tick). */
  clear(): void;
  /** Hides it until the next `start`. */
  stop(): void;
}

/**
 * A one-line spinner with a label and the elapsed time, drawn on a terminal only. It is erased
 * (`clear`) before anything else is written to the same line.
 */
export class Spinner implements WaitIndicator {
  readonly #out: NodeJS.WritableStream;
  #label = '';
  #since = 0;
  #frame = 0;
  #timer: NodeJS.Timeout | undefined;
  #drawn = false;

  constructor(out: NodeJS.WritableStream) {
    this.#out = out;
  }

  /** Shows (or relabels) the spinner; the elapsed time counts from `since` (default now). */
  start(label: string, since = Date.now()): void {
    this.#label = label;
    this.#since = since;
    if (!this.#timer) {
      this.#timer = setInterval(() => this.#draw(), 100);
      this.#timer.unref();
    }
    this.#draw();
  }

  /** Erases the spinner's line, keeping it running (it is drawn again on the next tick). */
  clear(): void {
    if (!this.#drawn) return;
    this.#out.write('\r\x1b[2K');
    this.#drawn = false;
  }

  /** Erases and stops the spinner. */
  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    this.clear();
  }

  #draw(): void {
    this.#frame = (this.#frame + 1) % FRAMES.length;
    const text = `${FRAMES[this.#frame]} ${this.#label} ${formatElapsed(Date.now() - this.#since)}`;
    this.#out.write(`\r\x1b[2K${paint(this.#out, 'dim', text)}`);
    this.#drawn = true;
  }
}
