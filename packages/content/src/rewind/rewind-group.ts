import {
  type CommandChange,
  RepaError,
  type RewindFile,
  type SaveReceipt,
  type WireError,
} from '@repa/protocol';
import { diffOfSave, type GroupRecords, historyEvicted } from '../history/index.js';
import type { SaveChange } from '../save/index.js';
import { holdSpace, parseSpacePath } from '../space/index.js';
import type { ContentStore } from '../store/index.js';
import { netChanges, type RunFileChange } from './run-changes.js';

/** Options of {@link rewindGroup}. */
export interface RewindOptions {
  /** The rewind's own id: its saves are `<rewindId>-<n>` (so the rewind can be rewound). */
  rewindId: string;
  /** Only this save of the group. */
  operationId?: string | undefined;
  /** Only these files (either end of a move). */
  files?: readonly string[] | undefined;
  /** Write the old bytes over files changed since, too (each reported `forced`). */
  force?: boolean | undefined;
  /** Only say what would happen; write nothing. */
  preview?: boolean | undefined;
  /** Checked before each file's save: a cancel leaves the files not reached as they are. */
  signal?: AbortSignal | undefined;
}

/** What {@link rewindGroup} did (or would do) per file, and the command changes it cannot undo. */
export interface GroupRewind {
  files: RewindFile[];
  commands: CommandChange[];
}

/** A file as it is on disk now: its version and bytes (`null`: no file). */
interface FileNow {
  version: string | null;
  bytes: Buffer | null;
}

/** The version and bytes at `target` now (resolved like a save would resolve it). */
async function fileNow(store: ContentStore, target: string): Promise<FileNow> {
  const location = await store.space.canonical(target);
  const current = await store.space.currentVersion(location.absolutePath, location.target);
  return current === null
    ? { version: null, bytes: null }
    : { version: current.version, bytes: current.bytes };
}

/** The net changes of a group's saves, narrowed to one save or some files (`not_found` else). */
export async function selectChanges(
  store: ContentStore,
  group: string,
  options: { operationId?: string | undefined; files?: readonly string[] | undefined },
): Promise<{ files: RunFileChange[]; commands: CommandChange[]; found: GroupRecords }> {
  const found = await store.history.records(group);
  let records = found.records;
  if (options.operationId !== undefined) {
    records = records.filter((record) => record.operationId === options.operationId);
    if (records.length === 0) {
      throw new RepaError('not_found', `No save ${options.operationId} of ${group} is recorded.`, {
        fix: 'Name a save of this run as its receipt shows it (`<runId>-<n>`).',
      });
    }
  }
  const net = netChanges(records);
  if (options.files === undefined) return { ...net, found };
  const wanted = options.files.map((file) => parseSpacePath(file));
  const missing = wanted.filter(
    (file) => !net.files.some((change) => change.target === file || change.movedTo === file),
  );
  if (missing.length > 0) {
    throw new RepaError('not_found', `${group} changed no file ${missing.join(', ')}.`, {
      fix: 'Name files the run saved (see `repa runs diff`).',
    });
  }
  const files = net.files.filter(
    (change) =>
      wanted.includes(change.target) ||
      (change.movedTo !== undefined && wanted.includes(change.movedTo)),
  );
  return { files, commands: net.commands, found };
}

/**
 * Rewinds a group of saves (a run's, a rewind's; spec R68): each file back to its version before the group,
 * only where it is still exactly the group's last version (else `stale_version`, unless `force`),
 * one save per file (a move's two ends together), each with receipts through the store's own
 * intent records. Files created are removed, moves moved back, deletions restored. Holds the
 * space shared (no command runs meanwhile).
 */
export async function rewindGroup(
  store: ContentStore,
  group: string,
  options: RewindOptions,
): Promise<GroupRewind> {
  const { files: changes, commands } = await selectChanges(store, group, options);
  return holdSpace(store.root, 'shared', async () => {
    const files: RewindFile[] = [];
    let saves = 0;
    for (const change of changes) {
      if (options.signal?.aborted) break;
      files.push(await rewindFile(store, change, options, () => `${options.rewindId}-${++saves}`));
    }
    return { files, commands };
  });
}

async function rewindFile(
  store: ContentStore,
  change: RunFileChange,
  options: RewindOptions,
  nextOperationId: () => string,
): Promise<RewindFile> {
  const base: RewindFile = {
    target: change.target,
    ...(change.movedTo === undefined ? {} : { movedTo: change.movedTo }),
    change: change.change,
    runVersion: change.after,
    restoreVersion: change.before,
    status: 'refused',
  };
  const refuse = (error: unknown): RewindFile => ({
    ...base,
    status: 'refused',
    error: RepaError.fromUnknown(error).toWire() as WireError,
  });
  let atTarget: FileNow;
  let atMoved: FileNow | undefined;
  try {
    atTarget = await fileNow(store, change.target);
    atMoved = change.movedTo === undefined ? undefined : await fileNow(store, change.movedTo);
  } catch (error) {
    return refuse(error);
  }
  // Where the run's result is (the move's new end), and what is there now.
  const here = atMoved ?? atTarget;
  base.currentVersion = here.version;
  const shown = base;
  const restored = atTarget.version === change.before && (atMoved?.version ?? null) === null;
  if (restored) return { ...shown, status: 'unchanged' };
  // The one end that is not as the run left it, if any: its path, the version expected there
  // (the run's, or none at a move's old end) and the version there now.
  const stale =
    here.version !== change.after
      ? { where: change.movedTo ?? change.target, expected: change.after, now: here.version }
      : atMoved !== undefined && atTarget.version !== null
        ? { where: change.target, expected: null, now: atTarget.version }
        : undefined;
  if (stale !== undefined && !options.force) {
    return refuse(
      new RepaError(
        'stale_version',
        `${stale.where} changed since the run (${short(stale.expected)} then, ${short(stale.now)} now); it was left as it is.`,
        {
          fix: 'Look at the file first; to put back its version from before the run anyway, rewind it with force (a new save, which can itself be rewound).',
          details: {
            target: stale.where,
            expectedVersion: stale.expected,
            currentVersion: stale.now,
          },
        },
      ),
    );
  }
  let old: Buffer | null = null;
  if (change.before !== null) {
    try {
      old = await store.history.read(change.before);
    } catch (error) {
      if (!(RepaError.isInstance(error) && error.code === 'history_evicted')) return refuse(error);
      const problem = error.details?.problem === 'damaged' ? 'damaged' : 'evicted';
      const why = change.kept ? historyEvicted(change.before, problem) : error;
      return refuse(
        new RepaError(
          'history_evicted',
          `${change.target}: ${change.kept ? why.message : 'the bytes it had before the run were not kept.'}`,
          { details: { target: change.target, version: change.before, problem } },
        ),
      );
    }
  }
  const diff = diffOfSave(change.target, here.bytes, old);
  const planned: RewindFile = { ...shown, diff, ...(stale ? { forced: true } : {}) };
  if (options.preview) return { ...planned, status: 'planned' };
  const saveChanges: SaveChange[] = [];
  if (atMoved !== undefined && change.movedTo !== undefined && atMoved.version !== null) {
    saveChanges.push({ target: change.movedTo, content: null, expectedVersion: atMoved.version });
  }
  if (old !== null || atTarget.version !== null) {
    saveChanges.push({
      target: change.target,
      content: old,
      expectedVersion: atTarget.version,
      ...(saveChanges.length > 0 && change.movedTo ? { identityFrom: change.movedTo } : {}),
    });
  }
  let receipts: SaveReceipt[];
  try {
    receipts = await store.save(saveChanges, { operationId: nextOperationId() });
  } catch (error) {
    return refuse(error);
  }
  return { ...planned, status: 'restored', receipts };
}

const short = (version: string | null) => (version === null ? 'no file' : version.slice(0, 8));
