import { type CommandChange, RepaError, type RunFileDiff } from '@repa/protocol';
import { diffOfSave } from '../history/index.js';
import { holdSpace } from '../space/index.js';
import type { ContentStore } from '../store/index.js';
import { selectChanges } from './rewind-group.js';
import type { RunFileChange } from './run-changes.js';

/** The bounds of `run.diff`: whole notes, but not a whole disk. */
const FULL_DIFF = { maxChars: 4 * 1024 * 1024, maxBytes: 8 * 1024 * 1024, timeoutMs: 2_000 };

/** What a group of saves (a run's) changed, per file, from before its first save to its last. */
export async function diffGroup(
  store: ContentStore,
  group: string,
  file?: string,
): Promise<{ files: RunFileDiff[]; commands: CommandChange[] }> {
  const selected = await selectChanges(store, group, file === undefined ? {} : { files: [file] });
  return holdSpace(store.root, 'shared', async () => {
    const files: RunFileDiff[] = [];
    for (const change of selected.files) {
      const before = await bytesOf(store, change.before, undefined);
      const after = await bytesOf(store, change.after, change.movedTo ?? change.target);
      const gone = (which: string) => ({
        target: change.target,
        added: 0,
        removed: 0,
        note: `the bytes ${which} are no longer kept`,
      });
      const diff =
        before === undefined
          ? gone('before the run')
          : after === undefined
            ? gone('the run wrote (the file changed since)')
            : diffOfSave(change.target, before, after, FULL_DIFF, change.movedTo);
      files.push({
        target: change.target,
        ...(change.movedTo === undefined ? {} : { movedTo: change.movedTo }),
        change: change.change,
        beforeVersion: change.before,
        afterVersion: change.after,
        diff,
      });
    }
    return { files, commands: selected.commands };
  });
}

/**
 * The bytes of `version` (`null` for no file): kept, or the file at `path` while it still has
 * that version; `undefined` when neither has them.
 */
async function bytesOf(
  store: ContentStore,
  version: RunFileChange['before'],
  path: string | undefined,
): Promise<Buffer | null | undefined> {
  if (version === null) return null;
  if (await store.history.has(version)) {
    try {
      return await store.history.read(version);
    } catch (error) {
      if (!(RepaError.isInstance(error) && error.code === 'history_evicted')) throw error;
    }
  }
  if (path === undefined) return undefined;
  try {
    const location = await store.space.canonical(path);
    const current = await store.space.currentVersion(location.absolutePath, location.target);
    return current?.version === version ? current.bytes : undefined;
  } catch {
    return undefined;
  }
}
