import { Writable } from 'node:stream';
import {
  CombinedAutocompleteProvider,
  Container,
  Editor,
  type EditorTheme,
  matchesKey,
  ProcessTerminal,
  Text,
  TruncatedText,
  TuiMainScreen,
} from '@earendil-works/pi-tui';
import { RepaError, type RunDelivery, type RunInfo } from '@repa/protocol';
import type { Approver } from '../approvals.js';
import type { FollowedRun } from '../follow-run.js';
import { RunPrinter } from '../run-printer.js';
import { FRAMES, formatElapsed, type WaitIndicator } from '../style.js';
import { chatApprovals } from './chat-approvals.js';

/** What the terminal chat needs from `repa chat`. */
export interface TerminalChatActions {
  /** Sends one request and follows it (the one place a request leaves the chat). */
  send(
    text: string,
    printer: RunPrinter,
    delivery?: RunDelivery,
    accepted?: (run: RunInfo) => void,
    approver?: Approver,
  ): FollowedRun;
  /** Runs a slash command; resolves false for `/exit`. */
  command(line: string, say: (text: string) => void): Promise<boolean>;
  /** True for a prompt template's line (`/name …`): it is sent as a request, not run here. */
  isTemplate?(line: string): boolean;
  /** The slash commands with what each does, for completion. */
  commands: readonly (readonly [string, string])[];
  /** The space root (file completion with Tab). */
  space: string;
  /** Shown first: the last turns of a session the chat continues. */
  opening?: string;
  /** The status line under the editor (model, thinking, context use, session), asked anew after each reply and command. */
  status?: () => Promise<string>;
  /**
   * Calls `onRun` with each run of the session another client starts (the page, another
   * terminal); returns the unsubscribe.
   */
  watch?(onRun: (run: RunInfo) => void): () => void;
  /** Follows a run another client started. */
  follow?(runId: string, printer: RunPrinter): FollowedRun;
}

const plain = (text: string) => text;
const THEME: EditorTheme = {
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
class Transcript {
  readonly view = new Container();
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
class Held {
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
class WorkingLine implements WaitIndicator {
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

const dim = (text: string) => `\x1b[2m${text}\x1b[22m`;

/** A request of the chat: shown, then followed once the replies before it have ended. */
interface Turn {
  text: string;
  /** Who sent it, when not this chat (`another client`). */
  from?: string;
  /** Sends it (now, or already sent into the queue). */
  start(): FollowedRun;
  /** Shows its output held so far (queued requests stream into a hold until their turn). */
  show(): void;
}

/**
 * `repa chat` on a terminal, with Pi's terminal UI: an editor for multi-line input (Enter sends,
 * Shift-Enter or Alt-Enter starts a new line) that stays live while a reply streams; a request sent
 * meanwhile goes at once into the session's queue and streams, in order, when its turn comes. Ctrl-C cancels a running reply (twice: leaves at once, exit
 * code 130), else clears a half-typed request, else leaves; Ctrl-D on an empty editor leaves.
 */
export async function terminalChat(actions: TerminalChatActions): Promise<number> {
  const tui = new TuiMainScreen(new ProcessTerminal());
  const transcript = new Transcript(() => tui.requestRender());
  const working = new WorkingLine(() => tui.requestRender());
  // The status line: one row, cut to the terminal's width.
  const statusView = new Container();
  const printer = new RunPrinter({
    out: transcript.stream(),
    json: false,
    showErrors: true,
    indicator: working,
  });
  let active: FollowedRun | undefined;
  // While a reply streams, other output goes below it (never into its sentence).
  const say = (text: string) => {
    if (active) {
      transcript.note(text);
      return;
    }
    transcript.next();
    transcript.append(`${text}\n`);
    transcript.next();
  };
  const refreshStatus = () => {
    actions
      .status?.()
      .then((line) => {
        statusView.clear();
        statusView.addChild(new TruncatedText(dim(line), 0, 0));
        tui.requestRender();
      })
      .catch(() => {}); // The status line is a convenience: a failed look leaves the last one.
  };
  const editor = new Editor(tui, THEME);
  editor.setAutocompleteProvider(
    new CombinedAutocompleteProvider(
      actions.commands.map(([name, description]) => ({ name: name.slice(1), description })),
      actions.space,
      null,
    ),
  );
  tui.addChild(transcript.view);
  tui.addChild(working.view);
  tui.addChild(editor);
  tui.addChild(statusView);
  tui.setFocus(editor);
  if (actions.opening) say(actions.opening);
  refreshStatus();

  let finish!: (code: number) => void;
  const finished = new Promise<number>((resolve) => {
    finish = resolve;
  });
  const waiting: Turn[] = [];
  // A save or command waiting for the learner: the next line typed answers it (R37).
  const { approver, answer } = chatApprovals(say);

  const sendNext = async () => {
    while (!active && waiting.length > 0) {
      const turn = waiting.shift() as Turn;
      const who = turn.from ? `[${turn.from}] ` : 'you> ';
      say(`${who}${turn.text.replace(/\n/g, `\n${' '.repeat(who.length)}`)}`);
      active = turn.start();
      turn.show();
      try {
        await active.done;
      } catch (error) {
        if (RepaError.isInstance(error) && error.code === 'daemon_unavailable') {
          say(`repa: ${error.message} (${error.code})\nFix: ${error.fix}`);
          finish(1);
          return;
        }
        const repaError = RepaError.fromUnknown(error);
        say(`repa: ${repaError.message} (${repaError.code})\nFix: ${repaError.fix}`);
      } finally {
        active = undefined;
        working.stop();
        transcript.next();
        refreshStatus();
      }
    }
  };

  /**
   * A request followed now whose output waits until the replies before it have ended: one typed
   * while a reply streams (into the session's queue now), or one another client queued.
   */
  const later = (
    text: string,
    follow: (printer: RunPrinter) => FollowedRun,
    from?: string,
  ): Turn => {
    const held = new Held((chunk) => transcript.append(chunk));
    // The working line is the running reply's until this one's turn comes.
    let shown = false;
    let waitingFor: [string, number] | undefined;
    const indicator: WaitIndicator = {
      start: (label, since = Date.now()) => {
        waitingFor = [label, since];
        if (shown) working.start(label, since);
      },
      clear: () => {},
      stop: () => {
        waitingFor = undefined;
        if (shown) working.stop();
      },
    };
    const queuedPrinter = new RunPrinter({
      out: held.stream(),
      json: false,
      showErrors: true,
      indicator,
    });
    const run = follow(queuedPrinter);
    run.done.catch(() => {}); // Its failure (e.g. queue_full) is shown at its turn.
    const show = () => {
      held.release();
      shown = true;
      if (waitingFor) working.start(...waitingFor);
    };
    return { text, start: () => run, show, ...(from ? { from } : {}) };
  };
  const queued = (accepted: RunInfo) => {
    if (!accepted.queuePosition) return;
    say(`[queued] run ${accepted.runId} waits at position ${accepted.queuePosition}`);
  };
  const queue = (text: string): Turn =>
    later(text, (held) => actions.send(text, held, 'queue', queued, approver));

  // A run another client starts in this session streams here too, in its turn.
  const follow = actions.follow;
  const stopWatching = actions.watch?.((run) => {
    if (!follow) return;
    const from = 'another client';
    waiting.push(
      active || waiting.length > 0
        ? later(run.input.text, (held) => follow(run.runId, held), from)
        : { text: run.input.text, from, start: () => follow(run.runId, printer), show: () => {} },
    );
    void sendNext();
  });

  editor.onSubmit = (text) => {
    if (answer(text)) return;
    if (text === '') return;
    editor.addToHistory(text);
    if (text.startsWith('/') && !text.includes('\n') && !actions.isTemplate?.(text)) {
      say(`you> ${text}`);
      actions.command(text, say).then(
        (goOn) => {
          if (!goOn) finish(0);
          else refreshStatus();
        },
        (error: unknown) => {
          const repaError = RepaError.fromUnknown(error);
          say(`repa: ${repaError.message} (${repaError.code})\nFix: ${repaError.fix}`);
        },
      );
      return;
    }
    waiting.push(
      active || waiting.length > 0
        ? queue(text)
        : {
            text,
            start: () => actions.send(text, printer, undefined, undefined, approver),
            show: () => {},
          },
    );
    void sendNext();
  };

  const interrupt = () => {
    if (active) {
      if (active.cancelling) finish(130);
      else active.cancel();
    } else if (editor.getText() !== '') {
      editor.setText('');
      tui.requestRender();
    } else finish(0);
  };
  tui.addInputListener((data) => {
    if (matchesKey(data, 'ctrl+c')) {
      interrupt();
      return { consume: true };
    }
    if (matchesKey(data, 'ctrl+d') && editor.getText() === '' && !active) {
      finish(0);
      return { consume: true };
    }
    return undefined;
  });
  process.on('SIGINT', interrupt); // A signal sent to the process from outside.
  tui.start();
  try {
    return await finished;
  } finally {
    stopWatching?.();
    process.off('SIGINT', interrupt);
    working.stop();
    tui.stop();
  }
}
