import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AgentSession,
  type FileEntry,
  type SessionEntry,
  SessionManager,
} from '@earendil-works/pi-coding-agent';
import { citationFootnotes, foldedText, type RunInfo } from '@repa/protocol';
import { saveReceiptSchema } from '@repa/protocol/schemas';
import { z } from 'zod';
import { RUN_MARK } from './run-marks.js';
import { sessionFileEntries } from './session-files.js';
import { findSessionState } from './space-sessions.js';

/** The formats a session is exported in. */
export type SessionExportFormat = 'markdown' | 'html' | 'jsonl';

const receiptsSchema = z.looseObject({ receipts: z.array(saveReceiptSchema).optional() });

type Block = {
  type?: string;
  text?: string;
  thinking?: string;
  name?: string;
  arguments?: unknown;
};

function quoted(text: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? '>' : `> ${line}`))
    .join('\n');
}

function blocksOf(content: unknown): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? (content as Block[]) : [];
}

function textOf(content: unknown): string {
  return blocksOf(content)
    .flatMap((block) => (block.type === 'text' && block.text ? [block.text] : []))
    .join('\n');
}

/** A tool call's arguments on one line, shortened. */
function argumentsLine(args: unknown): string {
  const json = JSON.stringify(args ?? {});
  return json.length > 200 ? `${json.slice(0, 199)}…` : json;
}

/** A run's citation checks, as the CLI shows them after its answer; none when it has none. */
function citationChecks(run: RunInfo | undefined): string[] {
  const lines = citationFootnotes(run?.citations ?? []);
  return lines.length === 0
    ? []
    : [`Citation checks:\n\n${lines.map((line) => `- ${line}`).join('\n')}`];
}

/** One line for a run at its mark: id, status, model and the provider's token counts. */
function runLine(run: RunInfo | undefined, runId: string): string {
  if (!run) return `*Run ${runId}*`;
  const usage = run.usage
    ? `, ${run.usage.input} in / ${run.usage.output} out tokens (provider's figures)`
    : '';
  const error = run.error ? ` — ${run.error.code}: ${run.error.message}` : '';
  return `*Run ${run.runId}: ${run.status}${run.model ? `, ${run.model}` : ''}${usage}${error}*`;
}

function entryMarkdown(entry: SessionEntry, runs: ReadonlyMap<string, RunInfo>): string[] {
  const time = entry.timestamp.replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
  switch (entry.type) {
    case 'custom': {
      if (entry.customType !== RUN_MARK) return [];
      const runId = String((entry.data as { runId?: unknown } | undefined)?.runId ?? '');
      return [runLine(runs.get(runId), runId)];
    }
    case 'message': {
      const message = entry.message as {
        role: string;
        content?: unknown;
        toolName?: string;
        isError?: boolean;
        details?: unknown;
        stopReason?: string;
        errorMessage?: string;
      };
      if (message.role === 'user') return [`## You · ${time}`, textOf(message.content)];
      if (message.role === 'assistant') {
        const parts = blocksOf(message.content).flatMap((block) => {
          if (block.type === 'text' && block.text) return [block.text];
          if (block.type === 'toolCall') {
            return [`**Tool call \`${block.name}\`** \`${argumentsLine(block.arguments)}\``];
          }
          return [];
        });
        if (message.stopReason === 'error')
          parts.push(`*The reply failed: ${message.errorMessage ?? 'error'}*`);
        if (message.stopReason === 'aborted') parts.push('*The reply was cancelled.*');
        return [`## Agent · ${time}`, ...parts];
      }
      if (message.role === 'toolResult') {
        const receipts = receiptsSchema.safeParse(message.details ?? {});
        const saved = (receipts.success ? (receipts.data.receipts ?? []) : []).map(
          (receipt) =>
            `- saved \`${receipt.target}\` (${receipt.identity}): ${receipt.previousVersion?.slice(0, 12) ?? 'new'} → ${receipt.version?.slice(0, 12) ?? 'deleted'}, ${receipt.bytes} bytes`,
        );
        // For reading: a line a result (Pi's session file, or the jsonl export, has it whole).
        return [
          `**Tool result \`${message.toolName ?? 'tool'}\`${message.isError ? ' (error)' : ''}**: ${foldedText(textOf(message.content), 100).replace(/`/g, "'")}`,
          ...(saved.length > 0 ? [`Receipts:\n${saved.join('\n')}`] : []),
        ];
      }
      return [];
    }
    case 'custom_message':
      if (entry.customType === 'repa.learning-context') {
        return [`## Learning context · ${time}`, quoted(textOf(entry.content))];
      }
      if (entry.customType === 'repa.file-changes') {
        return [`## Files changed · ${time}`, quoted(textOf(entry.content))];
      }
      return [];
    case 'compaction':
      return [`## Summary of the earlier conversation · ${time}`, quoted(entry.summary)];
    case 'branch_summary':
      return [`## Summary of another branch · ${time}`, quoted(entry.summary)];
    default:
      return [];
  }
}

/**
 * A session's current branch as Markdown for reading (spec R27): the requests and replies with
 * their tool calls (a line each), tool results summarised to a line with the receipts of their
 * saves, each run's citation checks after its answer, learning-context snapshots, file-change
 * notices and summaries, and where each run began with its record from the ledger (`runs`).
 */
export function sessionMarkdown(
  entries: readonly FileEntry[],
  options: { title: string; runs?: readonly RunInfo[] },
): string {
  const runs = new Map((options.runs ?? []).map((run) => [run.runId, run]));
  const manager = SessionManager.inMemory('/', undefined, [...entries]);
  // Each run's citation checks after its entries: at the next run's mark, or at the end.
  let current: string | undefined;
  const body = manager.getBranch().flatMap((entry) => {
    if (entry.type !== 'custom' || entry.customType !== RUN_MARK) return entryMarkdown(entry, runs);
    const checks = citationChecks(current === undefined ? undefined : runs.get(current));
    current = String((entry.data as { runId?: unknown } | undefined)?.runId ?? '');
    return [...checks, ...entryMarkdown(entry, runs)];
  });
  body.push(...citationChecks(current === undefined ? undefined : runs.get(current)));
  return `# ${options.title}\n\n${body.join('\n\n')}\n`;
}

/**
 * A session exported as `format`: `markdown` ({@link sessionMarkdown}, read from the file),
 * `jsonl` (Pi's session file as it is, every branch) or `html` (Pi's own HTML export, through the
 * session's open host).
 */
export async function exportSession(
  space: string,
  sessionId: string,
  format: SessionExportFormat,
  options: {
    runs?: readonly RunInfo[];
    host?: () => Promise<{ session: Pick<AgentSession, 'exportToHtml'> }>;
  } = {},
): Promise<string> {
  if (format === 'html') {
    if (!options.host) throw new Error('An HTML export needs the session host.');
    const host = await options.host();
    const dir = await mkdtemp(join(tmpdir(), 'repa-export-'));
    try {
      const path = join(dir, 'session.html');
      await host.session.exportToHtml(path);
      return await readFile(path, 'utf8');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  const { file, state } = await findSessionState(space, sessionId);
  const entries = await sessionFileEntries(file);
  if (format === 'jsonl') return `${entries.map((entry) => JSON.stringify(entry)).join('\n')}\n`;
  return sessionMarkdown(entries, {
    title: state.summary?.name ?? `Session ${sessionId}`,
    ...(options.runs ? { runs: options.runs } : {}),
  });
}
