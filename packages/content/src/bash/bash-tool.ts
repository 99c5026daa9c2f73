import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  type BashOperations,
  createBashToolDefinition,
  defineTool,
  type ToolDefinition,
  type TruncationResult,
} from '@earendil-works/pi-coding-agent';
import { type FileChange, RepaError } from '@repa/protocol';
import type { ContentObserver } from '../observer/index.js';
import { DEFAULT_SEARCH_LIMITS, jobScope, runInWorker, spaceRoot } from '../search/index.js';
import type { ContentStore } from '../store/index.js';
import { approvingCommands, holdingSpace, type ToolApprovals, toolError } from '../tools/index.js';
import { runSandboxed, type SandboxedRun } from './bash-sandbox.js';
import { findGitFolders, type GitMove, quarantineNewGit, rootIsGitFolder } from './git-guard.js';

/** Options of {@link createSandboxedBashTool}. */
export interface SandboxedBashToolOptions {
  /** The space's store: the command runs in its root. */
  store: ContentStore;
  /** This host's observation map: files the command changed lose their baseline. */
  observer: ContentObserver;
  /** The wall-clock limit of one command in seconds, read at each call (`tools.bashTimeoutSeconds`). */
  timeoutSeconds: () => number;
  /** Folders hidden from the command besides the home folder (Repa's and Pi's own folders). */
  hidden?: readonly string[];
  /** Aborts when the host is disposed: every running command is stopped. */
  disposeSignal?: AbortSignal;
  /** Receives the changes found after each command: to files this host read, then (`previousVersion: null`) up to 50 other files it created or changed. */
  onChanges?: (changes: FileChange[]) => void | Promise<void>;
  /** The most processes one command may have at once. Default 256. */
  maxProcesses?: number;
  /** How long a stopped command may take SIGTERM before SIGKILL, in milliseconds. Default 2000. */
  graceMillis?: number;
  /** The most bytes of output one command may write; past it the command is stopped. Default 4 MiB. */
  maxOutputBytes?: number;
  /** The learner's say: each command line waits for approval before it runs (`tools.edits` `ask`); the space is read-only to commands (`off`). */
  approvals?: ToolApprovals;
}

/** Details of a `bash` result. */
export interface ContentBashDetails {
  /** The command's exit code; `null` when it was killed. */
  exitCode: number | null;
  /** The signal that ended it (Repa's SIGTERM, or SIGKILL after the grace period). */
  signal: 'SIGTERM' | 'SIGKILL' | null;
  /** Why Repa stopped it, if it did. */
  stoppedBy: 'timeout' | 'cancel' | 'dispose' | 'output' | null;
  /** Wall-clock duration in milliseconds. */
  durationMillis: number;
  /** Files this host had read that the command modified or deleted (their baselines are gone). */
  changes: FileChange[];
  /** Other files of the space the command created or changed (a bounded walk; none of `.repa`). */
  otherChanged: string[];
  /** Why the walk for other changed files stopped early, if it did. */
  walkStoppedEarly?: string;
  /** Git entries the command made, moved into `.repa/quarantine/` (or removed) before git could run them. */
  gitMoved: GitMove[];
  /** Why a walk for git folders stopped early, if one did (git folders beyond it were writable). */
  gitCheckStoppedEarly?: string;
  /** Pi's truncation of the output, when it applied (the full output is not kept). */
  truncation?: TruncationResult;
}

const DEFAULT_MAX_OUTPUT_BYTES = 4 * 1024 * 1024;
/** Pi's note on where it saved the full output: a host file the sandboxed model cannot read. */
const FULL_OUTPUT = /Full output: (\S+?\.log)\]/g;

/** Deletes the full-output files Pi wrote to the host's temporary folder and drops their mention. */
async function dropFullOutput(text: string): Promise<string> {
  for (const match of text.matchAll(FULL_OUTPUT)) {
    const path = match[1] ?? '';
    if (dirname(path) === tmpdir() && /^pi-bash-[^/]+\.log$/.test(basename(path))) {
      await rm(path, { force: true });
    }
  }
  return text.replace(FULL_OUTPUT, 'Full output not kept]');
}

const WALK_LIMITS = { ...DEFAULT_SEARCH_LIMITS, maxEntries: 20_000, maxMillis: 10_000 };
const LISTED = 50;
/** The largest file the after-command walk hashes; a larger one is listed without a version. */
const MAX_HASH_BYTES = 8 * 1024 * 1024;
/** The most bytes the after-command walk hashes in all, over every file it lists. */
const MAX_HASH_TOTAL = 64 * 1024 * 1024;
/** Hashed per read, with a turn of the event loop between reads. */
const HASH_SLICE = 1024 * 1024;

/**
 * The sha256 version of the regular file at `path` (never through a link; a FIFO is opened without
 * waiting and never read) when it holds at most `maxBytes`, hashed in slices that yield the event
 * loop; `{ bytes }` alone when it is larger (from its size, before a byte is read); `undefined`
 * when it is gone, a link or not a regular file.
 */
async function versionOfFile(
  path: string,
  maxBytes: number,
): Promise<{ version?: string; bytes: number } | undefined> {
  try {
    const handle = await open(
      path,
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    );
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) return undefined;
      if (stats.size > maxBytes) return { bytes: stats.size };
      const hash = createHash('sha256');
      const buffer = Buffer.allocUnsafe(Math.min(HASH_SLICE, maxBytes + 1));
      let bytes = 0;
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, bytes);
        if (bytesRead === 0) break;
        bytes += bytesRead;
        // It grew past the bound while it was hashed.
        if (bytes > maxBytes) return { bytes };
        hash.update(buffer.subarray(0, bytesRead));
        await nextTurn();
      }
      return { version: hash.digest('hex'), bytes };
    } finally {
      await handle.close();
    }
  } catch {
    return undefined; // Gone, a link, or not readable.
  }
}

/**
 * Receipt-less change records for files the command created or changed that this host had not
 * read: hashed up to {@link MAX_HASH_BYTES} each and {@link MAX_HASH_TOTAL} in all (spec R74); a
 * file past either bound is listed with `version: null` and a hint saying why.
 */
async function unreadChanges(store: ContentStore, paths: readonly string[]): Promise<FileChange[]> {
  const records: FileChange[] = [];
  let budget = MAX_HASH_TOTAL;
  for (const path of paths.slice(0, LISTED)) {
    const now = await versionOfFile(join(store.root, path), Math.min(MAX_HASH_BYTES, budget));
    if (now === undefined) continue;
    budget -= now.version === undefined ? 0 : now.bytes;
    const unhashed =
      now.bytes > MAX_HASH_BYTES
        ? `too large to compare (${now.bytes} bytes, over ${formatBytes(MAX_HASH_BYTES)})`
        : `not compared (the ${formatBytes(MAX_HASH_TOTAL)} hashed after one command are used up)`;
    records.push({
      target: path,
      kind: 'modified',
      previousVersion: null,
      version: now.version ?? null,
      form: 'location',
      hint: `changed by a command; this host had not read it${now.version === undefined ? `; ${unhashed}` : ''}`,
      bytes: now.bytes,
    });
  }
  return records;
}

/** Files of the space whose status changed at or after `since` (ms), not counting `known`. */
async function otherChangedFiles(
  store: ContentStore,
  since: number,
  known: ReadonlySet<string>,
): Promise<{ files: string[]; stopped?: string }> {
  const scope = await jobScope(store, spaceRoot(store.root), false, WALK_LIMITS);
  const { entries, report } = await runInWorker({
    ...scope,
    kind: 'changed',
    since,
    known: [...known],
  });
  const files = entries.map((entry) => entry.path);
  return report.stopped === undefined ? { files } : { files, stopped: report.stopped };
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

function statusLine(run: SandboxedRun, maxOutput: number): string {
  const seconds =
    run.durationMillis < 1000
      ? `${run.durationMillis} ms`
      : `${(run.durationMillis / 1000).toFixed(1)} s`;
  const ended =
    run.stoppedBy === null
      ? run.exitCode === null
        ? `ended by ${run.signal ?? 'a signal'}`
        : `exit code ${run.exitCode}`
      : run.stoppedBy === 'output'
        ? `stopped (output over its limit of ${formatBytes(maxOutput)}) with ${run.signal}`
        : `stopped (${run.stoppedBy}) with ${run.signal}`;
  return `[bash: ${ended} after ${seconds}]`;
}

function changesText(details: ContentBashDetails): string {
  const lines: string[] = [];
  for (const change of details.changes) lines.push(`- ${change.kind}: ${change.target}`);
  for (const path of details.otherChanged.slice(0, LISTED)) lines.push(`- new or changed: ${path}`);
  if (details.otherChanged.length > LISTED) {
    lines.push(`- … and ${details.otherChanged.length - LISTED} more`);
  }
  if (details.walkStoppedEarly)
    lines.push(`- (not all files checked: ${details.walkStoppedEarly})`);
  if (lines.length === 0) return '';
  return `\n\nFiles the command changed in the space (read a file again before editing it):\n${lines.join('\n')}`;
}

function gitText(details: ContentBashDetails): string {
  const lines = details.gitMoved.map((move) =>
    move.movedTo !== undefined
      ? `- ${move.path} → ${move.movedTo}`
      : move.failed === undefined
        ? `- ${move.path}: removed (it could not be moved)`
        : `- ${move.path}: NOT moved or removed (${move.failed}); do not run git there`,
  );
  const parts: string[] = [];
  if (lines.length > 0) {
    parts.push(
      `Protected entries the command made were moved out of the space: git, run later outside the sandbox, would run a repository's hooks and config, and Pi would load what is put in .pi, .agents or an instruction file. Commands cannot make them here; ask the learner to.\n${lines.join('\n')}`,
    );
  }
  if (details.gitCheckStoppedEarly !== undefined) {
    parts.push(
      `Not every folder was checked for git folders (${details.gitCheckStoppedEarly}): a repository beyond them was writable by the command and was not checked after it.`,
    );
  }
  return parts.map((part) => `\n\n${part}`).join('');
}

/** The file-change records of the git entries a command made. */
function gitChanges(moves: readonly GitMove[]): FileChange[] {
  return moves.map((move) => ({
    target: move.path,
    kind: 'deleted',
    previousVersion: null,
    version: null,
    form: 'location',
    hint:
      move.movedTo !== undefined
        ? `a protected entry a command made, moved to ${move.movedTo} so that git and Pi never run or read it`
        : move.failed === undefined
          ? 'a protected entry a command made, removed so that git and Pi never run or read it'
          : `a protected entry a command made that could not be moved or removed (${move.failed}): do not run git or Pi there`,
  }));
}

/**
 * Pi's `bash` (parameters, streaming output, truncation, timeout) with every command run inside a
 * bubblewrap sandbox: the space writable except `.repa`, the rest of the file system read-only,
 * the home folder hidden, a private `/tmp`, no network, a process limit, and a wall-clock limit.
 * Without `bwrap` the call fails with `sandbox_unavailable`; nothing ever runs unsandboxed. After
 * each command the files it changed are reported and lose their read baseline.
 */
export function createSandboxedBashTool(options: SandboxedBashToolOptions): ToolDefinition {
  const { store, observer } = options;
  const base = createBashToolDefinition(store.root, { exposeSessionEnvironment: false });
  const tool: ToolDefinition<typeof base.parameters, ContentBashDetails> = {
    ...base,
    description: `${base.description} Runs in a sandbox: only the space is writable (read-only while the learner's setting allows no changes; not .repa, its git folders, .pi, .agents or instruction files such as AGENTS.md: what a command makes there is moved out of the space), the rest of the file system is read-only, /tmp is private and emptied after each command, there is no network, and each command is stopped after its time limit or after ${formatBytes(options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES)} of output (the full output of a truncated command is not kept). Files the command changes must be read again before editing them.`,
    promptSnippet: 'Run shell commands in a sandbox of the space (no network)',
    async execute(toolCallId, params, signal, onUpdate, ctx) {
      const limit = options.timeoutSeconds();
      const seconds =
        params.timeout !== undefined && params.timeout > 0
          ? Math.min(params.timeout, limit)
          : limit;
      const maxOutput = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
      // File times come from the kernel's coarse clock, up to one tick (10 ms at HZ=100) behind.
      const since = Date.now() - 10;
      // Every git folder and protected entry is bound read-only; what the command adds is moved out after.
      const gitBefore = await findGitFolders(store.root);
      if (gitBefore.rootIsGitFolder) throw toolError(rootIsGitFolder());
      let run: SandboxedRun | undefined;
      const operations: BashOperations = {
        exec: async (command, _cwd, { onData, signal: callSignal }) => {
          if (callSignal?.aborted) throw new Error('aborted');
          run = await runSandboxed(
            {
              space: store.root,
              hidden: options.hidden ?? [],
              readOnly: gitBefore.protect,
              spaceReadOnly: options.approvals?.readOnly?.() ?? false,
              maxProcesses: options.maxProcesses ?? 256,
              graceMillis: options.graceMillis ?? 2000,
            },
            {
              command,
              onData,
              timeoutMillis: seconds * 1000,
              signal: callSignal,
              disposeSignal: options.disposeSignal,
              maxOutputBytes: maxOutput,
            },
          );
          if (run.stoppedBy === 'timeout') throw new Error(`timeout:${seconds}`);
          if (run.stoppedBy !== null && run.stoppedBy !== 'output') throw new Error('aborted');
          return { exitCode: run.exitCode ?? (run.signal === 'SIGKILL' ? 137 : 143) };
        },
      };
      const pi = createBashToolDefinition(store.root, {
        operations,
        exposeSessionEnvironment: false,
      });
      let result: Awaited<ReturnType<typeof pi.execute>> | undefined;
      let failure: unknown;
      try {
        // Pi streams its own partial results (output so far); the final result carries Repa's details.
        const update = onUpdate as Parameters<typeof pi.execute>[3];
        result = await pi.execute(toolCallId, { command: params.command }, signal, update, ctx);
      } catch (error) {
        failure = error;
      }
      if (failure instanceof Error) failure.message = await dropFullOutput(failure.message);
      const piPath = (result?.details as { fullOutputPath?: unknown } | undefined)?.fullOutputPath;
      if (typeof piPath === 'string') await dropFullOutput(`Full output: ${piPath}]`);
      if (run === undefined) {
        // Nothing ran: the sandbox is missing, or the call was cancelled before it started.
        throw RepaError.isInstance(failure) ? toolError(failure) : failure;
      }
      const gitAfter = await findGitFolders(store.root);
      const gitMoved = await quarantineNewGit(store, gitBefore, gitAfter, since);
      const gitStopped = gitBefore.stopped ?? gitAfter.stopped;
      const report = await observer.checkChangesByCommand();
      const known = new Set(report.changes.map((change) => change.target));
      const others = await otherChangedFiles(store, since, known);
      const records = [
        ...gitChanges(gitMoved),
        ...report.changes,
        ...(await unreadChanges(store, others.files)),
      ];
      // Awaited: the run's record of them is on disk before the command's result is.
      if (records.length > 0) await options.onChanges?.(records);
      const piDetails = (result?.details ?? {}) as Partial<ContentBashDetails>;
      const details: ContentBashDetails = {
        ...run,
        changes: report.changes,
        otherChanged: others.files,
        ...(others.stopped ? { walkStoppedEarly: others.stopped } : {}),
        gitMoved,
        ...(gitStopped ? { gitCheckStoppedEarly: gitStopped } : {}),
        ...(piDetails.truncation ? { truncation: piDetails.truncation } : {}),
      };
      const footer = `\n\n${statusLine(run, maxOutput)}${changesText(details)}${gitText(details)}`;
      if (result === undefined) {
        const message = failure instanceof Error ? failure.message : String(failure);
        throw new Error(`${message}${footer}`);
      }
      const text = await dropFullOutput(
        result.content.map((part) => (part.type === 'text' ? part.text : '')).join(''),
      );
      return { content: [{ type: 'text', text: `${text}${footer}` }], details };
    },
  };
  // The command has the space alone from before its git walk to after its change walk; the
  // learner's approval comes before that, so the wait holds nothing.
  return approvingCommands(
    holdingSpace(store.root, 'exclusive', defineTool(tool), options.disposeSignal),
    options.approvals,
  );
}
