import {
  CombinedAutocompleteProvider,
  Container,
  Editor,
  matchesKey,
  ProcessTerminal,
  TruncatedText,
  TuiMainScreen,
} from '@earendil-works/pi-tui';
import { RepaError, type RunDelivery, type RunInfo } from '@repa/protocol';
import type { Approver } from '../approvals.js';
import type { FollowedRun } from '../follow-run.js';
import { RunPrinter } from '../run-printer.js';
import type { WaitIndicator } from '../style.js';
import { chatApprovals } from './chat-approvals.js';
import type { PickModel } from './chat-model.js';
import { dim, Held, pickIn, THEME, Transcript, WorkingLine } from './chat-views.js';

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
  /** Runs a slash command (`pick`: the model picker); resolves false for `/exit`. */
  command(line: string, say: (text: string) => void, pick?: PickModel): Promise<boolean>;
  /** `/steer TEXT` or `/follow-up TEXT`: its own run, or undefined when nothing was sent (said why). */
  deliver?(
    name: '/steer' | '/follow-up',
    text: string,
    say: (text: string) => void,
  ): Promise<RunInfo | undefined>;
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

/** `text`'s first line, shortened to a pending line's length. */
function firstLine(text: string): string {
  const [first = ''] = text.split('\n', 1);
  return first.length > 70 || first.length < text.length ? `${first.slice(0, 69)}…` : first;
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
  // Steers and follow-ups sent into the running reply, by their own run id, until delivered.
  const deliveries = new Map<string, { text: string; line: { remove(): void } }>();
  const arrived = new Set<string>(); // Delivered before run.submit's answer came back.
  const delivered = (requestRunId: string) => {
    const pending = deliveries.get(requestRunId);
    if (!pending) arrived.add(requestRunId);
    pending?.line.remove();
    deliveries.delete(requestRunId);
  };
  const printer = new RunPrinter({
    out: transcript.stream(),
    json: false,
    showErrors: true,
    indicator: working,
    delivered,
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
  // Where the model picker opens (`/model` alone), above the editor.
  const pickerView = new Container();
  let picking = false;
  const pick: PickModel = (choices, current) => {
    picking = true;
    return pickIn(tui, pickerView, editor, choices, current).finally(() => {
      picking = false;
    });
  };
  tui.addChild(transcript.view);
  tui.addChild(transcript.pendingView);
  tui.addChild(working.view);
  tui.addChild(pickerView);
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
        // What was sent into this reply and never reached it: said once, where the reply ended.
        for (const [runId, { text, line }] of deliveries) {
          line.remove();
          deliveries.delete(runId);
          transcript.next();
          transcript.append(`${text} (not delivered: the reply ended first)\n`);
        }
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
    follow: (printer: RunPrinter, pending: (line: string) => void) => FollowedRun,
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
      delivered,
    });
    // Until its turn it is a pending line, shown once where the model takes it up.
    const pending = transcript.pending(`[${from ? `${from}, ` : ''}queued] ${firstLine(text)}`);
    const run = follow(queuedPrinter, pending.update);
    run.done.catch(() => {}); // Its failure (e.g. queue_full) is shown at its turn.
    const show = () => {
      pending.remove();
      held.release();
      shown = true;
      if (waitingFor) working.start(...waitingFor);
    };
    return { text, start: () => run, show, ...(from ? { from } : {}) };
  };
  const queue = (text: string): Turn =>
    later(text, (held, pending) =>
      actions.send(
        text,
        held,
        'queue',
        (accepted) => {
          if (!accepted.queuePosition) return;
          pending(
            `[queued] ${firstLine(text)} (run ${accepted.runId}, position ${accepted.queuePosition})`,
          );
        },
        approver,
      ),
    );

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
    const delivery = /^(\/steer|\/follow-up)(?:\s+|$)/.exec(text)?.[1] as
      | '/steer'
      | '/follow-up'
      | undefined;
    if (delivery && actions.deliver) {
      // Shown once: pending below the reply until the model reads it, then in the reply there.
      const arg = text.slice(delivery.length).trim();
      const shown = `[${delivery.slice(1)}] ${firstLine(arg)}`;
      actions.deliver(delivery, arg, say).then(
        (run) => {
          if (!run || arrived.delete(run.runId)) return;
          const wait = delivery === '/steer' ? "the reply's next step" : 'the reply to stop';
          deliveries.set(run.runId, {
            text: shown,
            line: transcript.pending(`${shown} (waits for ${wait})`),
          });
        },
        (error: unknown) => {
          const repaError = RepaError.fromUnknown(error);
          say(`repa: ${repaError.message} (${repaError.code})\nFix: ${repaError.fix}`);
        },
      );
      return;
    }
    if (text.startsWith('/') && !text.includes('\n') && !actions.isTemplate?.(text)) {
      say(`you> ${text}`);
      actions.command(text, say, pick).then(
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
    if (picking) return undefined; // The picker's own keys: Esc and Ctrl-C keep the model.
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
