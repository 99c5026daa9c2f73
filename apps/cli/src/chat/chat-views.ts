import { Writable } from 'node:stream';
import {
  type Component,
  Container,
  type EditorTheme,
  SelectList,
  Text,
  type TuiMainScreen,
} from '@earendil-works/pi-tui';
import { FRAMES, formatElapsed, type WaitIndicator } from '../style.js';
import type { ModelChoice } from './chat-model.js';

const plain = (text: string) => text;
/** The editor's and the picker's theme: plain text. */
export const THEME: EditorTheme = {
  borderColor: plain,
  selectList: {
    selectedPrefix: plain,
    selectedText: plain,
    description: plain,
    scrollInfo: plain,
    noMatch: plain,
  },
};

/** The transcript above the editor: one text block per request and per reply, as they grow. */
export class Transcript {
  readonly view = new Container();
  /**
   * Below the transcript: what was sent but has not reached the model yet (a queued request, a
   * steer); each line goes when it does, and the transcript shows it there, once.
   */
  readonly pendingView = new Container();
  #block: Text | undefined;
  #text = '';
  readonly #changed: () => void;

  constructor(changed: () => void) {
    this.#changed = changed;
  }

  /** Starts a new block (the next output goes into it). */
  next(): void {
    this.#block = undefined;
    this.#text = '';
  }

  /**
   * Shows `text` in a block of its own after everything shown, leaving the current block where it
   * is: a command's output while a reply streams goes below the reply, not into its sentence.
   */
  note(text: string): void {
    this.view.addChild(new Text(text.replace(/\n$/, ''), 0, 0));
    this.#changed();
  }

  /** Appends output to the current block. */
  append(chunk: string): void {
    if (!this.#block) {
      this.#block = new Text('', 0, 0);
      this.view.addChild(this.#block);
    }
    this.#text += chunk;
    this.#block.setText(this.#text.replace(/\n$/, ''));
    this.#changed();
  }

  /** Shows `text` among the pending lines until the line answered is removed. */
  pending(text: string): { update(text: string): void; remove(): void } {
    const line = new Text(text, 0, 0);
    this.pendingView.addChild(line);
    this.#changed();
    return {
      update: (next) => {
        line.setText(next);
        this.#changed();
      },
      remove: () => {
        this.pendingView.removeChild(line);
        this.#changed();
      },
    };
  }

  /** A stream whose writes are appended (what a {@link RunPrinter} prints to). */
  stream(): Writable {
    return new Writable({
      write: (chunk: Buffer | string, _encoding, done) => {
        this.append(String(chunk));
        done();
      },
    });
  }
}

/** A stream that keeps what is written until {@link Held.release}, then writes through to `to`. */
export class Held {
  #chunks: string[] | undefined = [];
  readonly #to: (chunk: string) => void;

  constructor(to: (chunk: string) => void) {
    this.#to = to;
  }

  /** Writes what was kept, and from now on everything at once. */
  release(): void {
    for (const chunk of this.#chunks ?? []) this.#to(chunk);
    this.#chunks = undefined;
  }

  stream(): Writable {
    return new Writable({
      write: (chunk: Buffer | string, _encoding, done) => {
        if (this.#chunks) this.#chunks.push(String(chunk));
        else this.#to(String(chunk));
        done();
      },
    });
  }
}

/** The working indicator: a line above the editor with what the reply waits for and how long. */
export class WorkingLine implements WaitIndicator {
  readonly view = new Text('', 0, 0);
  readonly #changed: () => void;
  #timer: NodeJS.Timeout | undefined;
  #label = '';
  #since = 0;
  #frame = 0;

  constructor(changed: () => void) {
    this.#changed = changed;
  }

  start(label: string, since = Date.now()): void {
    this.#label = label;
    this.#since = since;
    this.#timer ??= setInterval(() => this.#draw(), 100);
    this.#draw();
  }

  /** Nothing to erase: the line is the terminal UI's own. */
  clear(): void {}

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.view.setText('');
    this.#changed();
  }

  #draw(): void {
    this.#frame = (this.#frame + 1) % FRAMES.length;
    const elapsed = formatElapsed(Date.now() - this.#since);
    this.view.setText(dim(`${FRAMES[this.#frame]} ${this.#label} · ${elapsed}`));
    this.#changed();
  }
}

/** `text` dimmed. */
export const dim = (text: string) => `\x1b[2m${text}\x1b[22m`;

/**
 * Opens a picker of `choices` in `slot` with `current` selected, focused until the learner picks
 * one (Enter: its id) or keeps the current one (Esc: undefined); then `back` has the focus again.
 */
export function pickIn(
  tui: TuiMainScreen,
  slot: Container,
  back: Component,
  choices: readonly ModelChoice[],
  current: string,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const items = choices.map((choice) => ({ value: choice.id, label: choice.label }));
    const list = new SelectList(items, Math.min(Math.max(items.length, 1), 10), THEME.selectList);
    const at = choices.findIndex((choice) => choice.id === current);
    if (at >= 0) list.setSelectedIndex(at);
    const close = (picked: string | undefined) => {
      slot.clear();
      tui.setFocus(back);
      tui.requestRender();
      resolve(picked);
    };
    list.onSelect = (item) => close(item.value);
    list.onCancel = () => close(undefined);
    slot.addChild(
      new Text('Pick a model: ↑ ↓ to move, Enter to use it, Esc to keep the current one', 0, 0),
    );
    slot.addChild(list);
    tui.setFocus(list);
    tui.requestRender();
  });
}
