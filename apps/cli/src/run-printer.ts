import {
  citationFootnotes,
  type FileChange,
  type RunEvent,
  type RunEventNotification,
  type RunInfo,
  type SaveReceipt,
  toolErrorMessage,
} from '@repa/protocol';
import { approvalAnsweredLine, approvalRequestLines } from './approval-lines.js';
import { changedLines, diffCounts, SHOWN_CHANGED_LINES } from './diff-lines.js';
import { summarizePromptSections, UNTRUSTED_HINT, withheldUntrusted } from './run-summary-lines.js';
import { paint, Spinner, type TextStyle, type WaitIndicator } from './style.js';

/** Options of {@link RunPrinter}. */
export interface RunPrinterOptions {
  /** Where the transcript goes. */
  out: NodeJS.WritableStream;
  /** One JSON object per line instead of the human transcript. */
  json: boolean;
  /** Put before every human line (the demo indents its runs). */
  indent?: string;
  /**
   * The prompt sections the model saw: `full` one line each (the demo), `summary` one line
   * (`--verbose`), `none` (default) not shown; `runs show` always has them.
   */
  promptSections?: 'none' | 'summary' | 'full';
  /** Print a failed run's error in the transcript (chat); `repa run` prints it on stderr instead. */
  showErrors?: boolean;
  /** Where the wait for the model or a tool shows (default: a spinner on a terminal `out`). */
  indicator?: WaitIndicator;
  /** Told the own run id of each steer or follow-up the run delivered to the model. */
  delivered?: (requestRunId: string) => void;
  /** Under each `[saved]`: every changed line (`--verbose`) instead of the first few. */
  allChangedLines?: boolean;
}

const short = (version: string | null): string => (version === null ? '∅' : version.slice(0, 8));

function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A tool call's arguments in a few words: its target (path or pattern) and what kind of change. */
export function describeToolArgs(toolName: string, args: unknown): string {
  if (typeof args !== 'object' || args === null) return '';
  const record = args as Record<string, unknown>;
  const path = typeof record.path === 'string' ? record.path : undefined;
  const pattern = typeof record.pattern === 'string' ? record.pattern : undefined;
  if ((toolName === 'grep' || toolName === 'find') && pattern !== undefined) {
    const where = path ?? (typeof record.glob === 'string' ? record.glob : undefined);
    return `${JSON.stringify(truncate(pattern, 60))}${where ? ` in ${where}` : ''}`;
  }
  if (toolName === 'ls') return path ?? '.';
  if (toolName === 'apply_patch' && typeof record.input === 'string') {
    const files = [...record.input.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)].map(
      (match) => match[1]?.trim() ?? '',
    );
    if (files.length > 0) return truncate(files.join(', '), 80);
  }
  if (toolName === 'edit' && path && Array.isArray(record.edits)) {
    return `${path} (${record.edits.length} edit${record.edits.length === 1 ? '' : 's'})`;
  }
  if (toolName === 'write' && path && typeof record.content === 'string') {
    return `${path} (${record.content.length} chars)`;
  }
  if (path) return path;
  return truncate(JSON.stringify(args), 80);
}

/** One save receipt as a line: target, versions, size, operation and identity. */
export function describeReceipt(receipt: SaveReceipt): string {
  const change =
    receipt.version === null
      ? `deleted (was ${short(receipt.previousVersion)})`
      : `${receipt.previousVersion === null ? 'new' : short(receipt.previousVersion)} → ${short(receipt.version)}, ${receipt.bytes} bytes`;
  return `${receipt.target}  ${change}  receipt ${receipt.operationId}  ${receipt.identity}`;
}

function describeChange(change: FileChange): string {
  const size = change.bytes === undefined ? '' : `, ${change.bytes} bytes`;
  const how = change.form === 'notice' ? '' : change.form === 'diff' ? ', with a diff' : '';
  return `${change.target} ${change.kind} (${short(change.previousVersion)} → ${short(change.version)})${size}${how}`;
}

function formatDelay(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s`;
}

/** The colour of a transcript line's `[tag]`. */
const TAG_STYLES: Record<string, TextStyle> = {
  repa: 'dim',
  status: 'dim',
  prompt: 'dim',
  context: 'dim',
  changes: 'magenta',
  tool: 'cyan',
  saved: 'green',
  retry: 'yellow',
  compaction: 'dim',
  progress: 'dim',
  cancel: 'yellow',
  approve: ['bold', 'yellow'],
  approved: 'green',
  refused: 'red',
  succeeded: ['bold', 'green'],
  failed: ['bold', 'red'],
  interrupted: ['bold', 'red'],
  cancelled: ['bold', 'yellow'],
};

/**
 * Prints a run as it happens: the reply as it streams, tool calls with their targets, saves with
 * receipts, retries and notices. On a terminal the tags are coloured and a spinner with the
 * elapsed time shows while the run waits for the model or a tool.
 */
export class RunPrinter {
  readonly #options: RunPrinterOptions;
  readonly #spinner: WaitIndicator | undefined;
  #atLineStart = true;
  #label: string | undefined;
  #since = 0;
  /** The last quarter of progress written per tool call. */
  readonly #told = new Map<string, number>();

  constructor(options: RunPrinterOptions) {
    this.#options = options;
    const out = options.out as NodeJS.WritableStream & { isTTY?: boolean };
    this.#spinner =
      options.indicator ?? (!options.json && out.isTTY === true ? new Spinner(out) : undefined);
  }

  /** Stops the spinner (the run ended or following it failed). */
  stop(): void {
    this.#label = undefined;
    this.#spinner?.stop();
  }

  /** Shows the spinner with `label` while nothing else is being written (a terminal only). */
  #wait(label: string | undefined): void {
    this.#label = label;
    if (label === undefined) this.#spinner?.stop();
    else this.#resume();
  }

  #resume(): void {
    if (this.#label !== undefined && this.#atLineStart)
      this.#spinner?.start(this.#label, this.#since);
  }

  /** The run was accepted (or found again by its request id). */
  accepted(run: RunInfo, resubmitted: boolean): void {
    if (this.#options.json) {
      this.#json({ kind: 'accepted', run, resubmitted });
      return;
    }
    if (resubmitted) {
      this.note(
        `[run] request ${run.requestId} was already accepted as run ${run.runId} (${run.status})`,
      );
    }
    this.#since = Date.now();
    this.#wait(run.status === 'accepted' ? 'waiting for its turn' : 'waiting for the model');
  }

  /** One `run.event` notification of the run. */
  event(notification: RunEventNotification): void {
    if (this.#options.json) {
      this.#json({ kind: 'event', ...notification });
      return;
    }
    this.#human(notification.event, notification.runId);
  }

  /**
   * The connection dropped and the client connected again: `run` is the run as the daemon has it
   * now; the events after `afterSeq` sent meanwhile were lost (the daemon does not replay them).
   */
  resumed(run: RunInfo, afterSeq: number): void {
    if (this.#options.json) {
      this.#json({ kind: 'resumed', run, afterSeq });
      return;
    }
    this.note(
      `[repa] reconnected to the daemon: run ${run.runId} is ${run.status}; its events after #${afterSeq} sent while the connection was down are not shown (repa runs show ${run.runId})`,
    );
  }

  /** The run ended; `run` is its final record. */
  finished(run: RunInfo, replayOutput: boolean): void {
    if (this.#options.json) {
      this.#json({ kind: 'finished', run });
      return;
    }
    this.stop();
    if (replayOutput && run.output) this.#text(run.output);
    for (const footnote of citationFootnotes(run.citations ?? [])) this.note(footnote);
    const error = run.error;
    const line = `[${run.status}] run ${run.runId}`;
    if (error && this.#options.showErrors) {
      this.note(`${line}: ${error.message} (${error.code})`);
      this.note(`Fix: ${error.fix}`);
    } else {
      this.note(line);
    }
  }

  /** A human line of its own (ignored in JSON mode); its leading `[tag]` coloured on a terminal. */
  note(line: string): void {
    if (this.#options.json) return;
    const { out } = this.#options;
    this.#spinner?.clear();
    if (!this.#atLineStart) out.write('\n');
    const tag = /^\[([a-z]+)\]/.exec(line);
    const style = tag ? TAG_STYLES[tag[1] as string] : undefined;
    const shown = tag && style ? `${paint(out, style, tag[0])}${line.slice(tag[0].length)}` : line;
    out.write(`${this.#options.indent ?? ''}${shown}\n`);
    this.#atLineStart = true;
    this.#resume();
  }

  #json(value: unknown): void {
    this.#options.out.write(`${JSON.stringify(value)}\n`);
  }

  #text(text: string): void {
    this.#spinner?.stop();
    const indent = this.#options.indent ?? '';
    let out = '';
    for (const piece of text.split(/(\n)/)) {
      if (piece === '') continue;
      if (piece === '\n') {
        out += '\n';
        this.#atLineStart = true;
        continue;
      }
      if (this.#atLineStart) out += indent;
      out += piece;
      this.#atLineStart = false;
    }
    this.#options.out.write(out);
    this.#resume();
  }

  /** A save's change under its `[saved]` line: `+3 −1`, then the changed lines (bounded). */
  #diff(
    diff: NonNullable<Extract<RunEvent, { type: 'tool-end' }>['diffs']>[number],
    runId: string,
  ) {
    const pad = '        ';
    this.note(`${pad}${diffCounts(diff)}`);
    const lines = changedLines(this.#options.out, diff, {
      limit: this.#options.allChangedLines ? undefined : SHOWN_CHANGED_LINES,
      more: `repa runs diff ${runId} ${diff.target}`,
    });
    for (const line of lines) this.note(`${pad}${line}`);
  }

  /**
   * A long tool call's progress (design R122): the spinner shows every step; a line is written at
   * the first and at each quarter, so a log is not flooded by a long read.
   */
  #progress(event: Extract<RunEvent, { type: 'tool-progress' }>): void {
    const { done, total } = event;
    const what = `${event.toolName} ${event.target}: ${done} of ${total} page${total === 1 ? '' : 's'}`;
    this.#wait(`${what} (cancel: Ctrl+C)`);
    const quarter = total === 0 ? 4 : Math.floor((done * 4) / total);
    const told = this.#told.get(event.toolCallId);
    if (told !== undefined && quarter <= told) return;
    this.#told.set(event.toolCallId, quarter);
    this.note(`[progress] ${what}`);
  }

  #human(event: RunEvent, runId: string): void {
    switch (event.type) {
      case 'text-delta':
        this.#text(event.delta);
        return;
      case 'status':
        // The end is printed by finished(), with the run's final record.
        if (event.status === 'running') this.#wait('waiting for the model');
        return;
      case 'tool-start': {
        const call = `${event.toolName} ${describeToolArgs(event.toolName, event.args)}`.trim();
        this.#label = `${call} …`;
        this.note(`[tool] ${call}`);
        return;
      }
      case 'tool-progress':
        this.#progress(event);
        return;
      case 'tool-end':
        this.#label = 'waiting for the model';
        this.#told.delete(event.toolCallId);
        if (event.images?.length) {
          this.note(
            `[tool] ${event.toolName} sent page${event.images.length === 1 ? '' : 's'} ${event.images.join(', ')} to the model as image${event.images.length === 1 ? '' : 's'}`,
          );
        }
        if (event.isError) {
          const error = event.error;
          const message = error ? toolErrorMessage(error) : '';
          this.note(
            // A protected place (design R69) is a refusal, not a failure: nothing was written.
            `[tool] ${event.toolName} ${error?.code === 'protected_path' ? 'refused' : 'failed'}${error ? `: ${truncate(message, 200)} (${error.code})` : ''}`,
          );
        }
        for (const receipt of event.receipts ?? []) {
          this.note(`[saved] ${describeReceipt(receipt)}`);
          const diff = event.diffs?.find((one) => one.target === receipt.target);
          if (diff) this.#diff(diff, runId);
        }
        return;
      case 'context-snapshot':
        this.note(
          `[context] learning context revision ${event.revision} (${event.chars} chars) from ${event.sources.join(', ') || 'no sources'}`,
        );
        return;
      case 'file-change-notice':
        this.note(
          `[changes] the model was told: ${event.changes.map(describeChange).join('; ') || 'nothing'}`,
        );
        return;
      case 'retry':
        this.#label = `retrying (attempt ${event.attempt} of ${event.maxAttempts})`;
        this.note(
          `[retry] Pi retries the model call (attempt ${event.attempt} of ${event.maxAttempts}) in ${formatDelay(event.delayMs)}: ${truncate(event.reason, 200)}`,
        );
        return;
      case 'compaction':
        this.note(
          event.phase === 'start'
            ? '[compaction] Pi is compacting the history …'
            : `[compaction] done${event.tokensBefore === undefined ? '' : ` (about ${event.tokensBefore} → ${event.estimatedTokensAfter ?? '?'} tokens)`}`,
        );
        return;
      case 'prompt-sections': {
        const shown = this.#options.promptSections ?? 'none';
        if (shown === 'full') {
          this.note('[prompt] the sections of the system prompt:');
          for (const section of event.sections) {
            this.note(
              `  ${section.included ? '+' : '-'} ${section.name.padEnd(20)} ${section.included ? `${section.chars} chars` : 'absent'}  (${section.reason})`,
            );
          }
        } else if (shown === 'summary') {
          this.note(`[prompt] ${summarizePromptSections(event.sections)}`);
        }
        const packaged = (event.packageResources ?? []).filter((item) => item.kind !== 'extension');
        if (shown !== 'none' && packaged.length > 0) {
          this.note(
            `[prompt] from Pi packages: ${packaged.map((item) => `${item.kind} ${item.name}`).join(', ')}`,
          );
        }
        // Withheld instructions are always named, with the command that trusts the space.
        if (event.sections.some(withheldUntrusted)) this.note(`[trust] ${UNTRUSTED_HINT}`);
        return;
      }
      case 'steer-delivered':
        this.#options.delivered?.(event.requestRunId);
        this.note(`[steer] delivered: ${truncate(event.text, 200)}`);
        return;
      case 'follow-up-delivered':
        this.#options.delivered?.(event.requestRunId);
        this.note(`[follow-up] delivered: ${truncate(event.text, 200)}`);
        return;
      case 'approval-request':
        this.#label = 'waiting for your approval';
        for (const line of approvalRequestLines(this.#options.out, event)) this.note(line);
        return;
      case 'approval-answered':
        this.#label = 'waiting for the model';
        this.note(approvalAnsweredLine(event));
        return;
      case 'sources-attached':
        this.note(
          `[attached] ${event.sources.map((source) => `${source.path} (${source.version.slice(0, 12)})`).join(', ')}`,
        );
        return;
      default:
        return; // A newer daemon may send event types this CLI does not know.
    }
  }
}
