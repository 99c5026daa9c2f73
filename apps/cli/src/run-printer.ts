import type {
  FileChange,
  PromptSectionReport,
  RunEvent,
  RunEventNotification,
  RunInfo,
  SaveReceipt,
} from '@repa/protocol';

/** Options of {@link RunPrinter}. */
export interface RunPrinterOptions {
  /** Where the transcript goes. */
  out: NodeJS.WritableStream;
  /** One JSON object per line instead of the human transcript. */
  json: boolean;
  /** Put before every human line (the demo indents its runs). */
  indent?: string;
  /** `full` lists every prompt section on its own line (the demo); default one summary line. */
  promptSections?: 'summary' | 'full';
  /** Print a failed run's error in the transcript (chat); `repa run` prints it on stderr instead. */
  showErrors?: boolean;
}

const short = (version: string | null): string => (version === null ? '∅' : version.slice(0, 8));

function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A tool call's arguments in a few words: the path, and what kind of change. */
export function describeToolArgs(toolName: string, args: unknown): string {
  if (typeof args !== 'object' || args === null) return '';
  const record = args as Record<string, unknown>;
  const path = typeof record.path === 'string' ? record.path : undefined;
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

/** A run's usage in one line: the provider's figures, and Pi's context estimate labelled as one. */
export function describeUsage(usage: NonNullable<RunInfo['usage']>): string {
  const cache =
    usage.cacheRead + usage.cacheWrite > 0
      ? `, cache ${usage.cacheRead} read / ${usage.cacheWrite} written`
      : '';
  const cost = usage.cost === undefined ? '' : `, cost $${usage.cost.toFixed(4)}`;
  const context =
    usage.contextTokensEstimate === undefined
      ? ''
      : `; context about ${usage.contextTokensEstimate}${usage.contextWindow ? ` of ${usage.contextWindow}` : ''} tokens (Pi's estimate)`;
  return `${usage.input} in, ${usage.output} out, ${usage.totalTokens} total tokens${cache}${cost} over ${usage.calls} call${usage.calls === 1 ? '' : 's'} (provider's figures)${context}`;
}

/** What a run's prompt report means when project instructions were withheld for want of trust. */
export const UNTRUSTED_HINT =
  'project instruction files were withheld: this space is not trusted. Trust it with: repa trust (in the space, or --space DIR)';

/** Whether a prompt section is the project instructions, withheld because the space is not trusted. */
export function withheldUntrusted(section: PromptSectionReport): boolean {
  return (
    section.name === 'projectInstructions' &&
    !section.included &&
    section.reason.startsWith('not trusted')
  );
}

/** The prompt sections in one line: what the model saw, and why the others are absent. */
export function summarizePromptSections(sections: readonly PromptSectionReport[]): string {
  const seen = sections
    .filter((section) => section.included)
    .map((section) => `${section.name} (${section.chars} chars)`);
  const absent = sections
    .filter((section) => !section.included)
    .map((section) => `${section.name}: ${section.reason}`);
  return `the model saw ${seen.join(', ') || 'no sections'}${absent.length > 0 ? `; absent: ${absent.join('; ')}` : ''}`;
}

/** Prints a run as it happens: the reply as it streams, tool calls, saves with receipts, notices. */
export class RunPrinter {
  readonly #options: RunPrinterOptions;
  #atLineStart = true;

  constructor(options: RunPrinterOptions) {
    this.#options = options;
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
  }

  /** One `run.event` notification of the run. */
  event(notification: RunEventNotification): void {
    if (this.#options.json) {
      this.#json({ kind: 'event', ...notification });
      return;
    }
    this.#human(notification.event);
  }

  /** The run ended; `run` is its final record. */
  finished(run: RunInfo, replayOutput: boolean): void {
    if (this.#options.json) {
      this.#json({ kind: 'finished', run });
      return;
    }
    if (replayOutput && run.output) this.#text(run.output);
    const error = run.error;
    const line = `[${run.status}] run ${run.runId}`;
    if (error && this.#options.showErrors) {
      this.note(`${line}: ${error.message} (${error.code})`);
      this.note(`Fix: ${error.fix}`);
    } else {
      this.note(line);
    }
  }

  /** A human line of its own (ignored in JSON mode). */
  note(line: string): void {
    if (this.#options.json) return;
    if (!this.#atLineStart) this.#options.out.write('\n');
    this.#options.out.write(`${this.#options.indent ?? ''}${line}\n`);
    this.#atLineStart = true;
  }

  #json(value: unknown): void {
    this.#options.out.write(`${JSON.stringify(value)}\n`);
  }

  #text(text: string): void {
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
  }

  #human(event: RunEvent): void {
    switch (event.type) {
      case 'text-delta':
        this.#text(event.delta);
        return;
      case 'status':
        return; // The end is printed by finished(), with the run's final record.
      case 'tool-start':
        this.note(
          `[tool] ${event.toolName} ${describeToolArgs(event.toolName, event.args)}`.trim(),
        );
        return;
      case 'tool-end':
        if (event.isError) {
          const error = event.error;
          // Content tools report `<code>: <message>` and `Fix: …` in one text; show the message.
          const message = error?.message.split('\nFix: ')[0]?.replace(`${error.code}: `, '') ?? '';
          this.note(
            `[tool] ${event.toolName} failed${error ? `: ${truncate(message, 200)} (${error.code})` : ''}`,
          );
        }
        for (const receipt of event.receipts ?? [])
          this.note(`[saved] ${describeReceipt(receipt)}`);
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
      case 'prompt-sections':
        if (this.#options.promptSections === 'full') {
          this.note('[prompt] the sections of the system prompt:');
          for (const section of event.sections) {
            this.note(
              `  ${section.included ? '+' : '-'} ${section.name.padEnd(20)} ${section.included ? `${section.chars} chars` : 'absent'}  (${section.reason})`,
            );
          }
        } else {
          this.note(`[prompt] ${summarizePromptSections(event.sections)}`);
        }
        if (event.sections.some(withheldUntrusted)) this.note(`[trust] ${UNTRUSTED_HINT}`);
        return;
      default:
        return; // A newer daemon may send event types this CLI does not know.
    }
  }
}
