import type { AgentSession, SessionManager } from '@earendil-works/pi-coding-agent';
import { type ContentObserver, type ContentStore, rewindGroup } from '@repa/content';
import { buildFileChangeMessage } from '@repa/context';
import {
  type FileChange,
  type FileChangesMode,
  RepaError,
  type RewindFile,
  type RewindResult,
} from '@repa/protocol';
import { RUN_MARK } from '../sessions/index.js';

/** The custom entry that records a rewind (and keeps a moved conversation's new leaf on disk). */
const REWIND_MARKER = 'repa.rewind';
/** The longest rewind diff told to the model in `diff` mode (as the observer's diffs). */
const MAX_TOLD_DIFF = 6000;

/** What {@link PiConversationHost.rewind} is asked to do. */
export interface RewindRequest {
  /** The run whose saves are rewound, or a rewind id (to undo that rewind). */
  runId: string;
  /** The rewind's own id: its saves are `<rewindId>-<n>`. */
  rewindId: string;
  /** Only this save of the run. */
  operationId?: string | undefined;
  /** Only these files (either end of a move). */
  files?: readonly string[] | undefined;
  /** Write the old bytes over files changed since, too. */
  force?: boolean | undefined;
  /** Report only; write nothing and leave the conversation as it is. */
  preview?: boolean | undefined;
  /** Also move the conversation back to before the run (a branch in Pi's session tree). */
  conversation?: boolean | undefined;
  /** How the model is told at its next request which files were rewound (`prompts.fileChanges`). */
  fileChanges: FileChangesMode;
}

/** The parts of a host a rewind works on. */
export interface RewindParts {
  store: ContentStore;
  observer: ContentObserver;
  session: AgentSession;
  sessionManager: SessionManager;
}

/**
 * Rewinds a run's saves through the content store (spec R68: each file only where it is still the run's
 * last version), then, on request, moves the conversation back to the entry before the run began
 * (Pi's `navigateTree` to the run's marker: the old branch stays in the file), and tells the
 * model at its next request which files were rewound (a file-change notice in the history).
 */
export async function rewindRun(parts: RewindParts, request: RewindRequest): Promise<RewindResult> {
  const { store, observer, session, sessionManager } = parts;
  // The conversation's place is found before any file is touched.
  const marker = request.conversation ? runMarker(sessionManager, request.runId) : undefined;
  const { files, commands } = await rewindGroup(store, request.runId, {
    rewindId: request.rewindId,
    operationId: request.operationId,
    files: request.files,
    force: request.force,
    preview: request.preview,
  });
  const result: RewindResult = {
    rewindId: request.rewindId,
    runId: request.runId,
    preview: request.preview === true,
    files,
    commands,
  };
  if (request.preview) {
    return marker ? { ...result, conversation: { leafId: marker.id } } : result;
  }
  const restored = files.filter((file) => file.status === 'restored');
  if (marker) {
    // The branch starts at the marker: the history ends right before the run's first entry.
    await session.navigateTree(marker.id);
    // What the model saw in the abandoned branch no longer counts (as for a rebuilt host, R54).
    observer.clear();
  } else {
    // The model's history still holds the run's versions; from now on it knows the restored ones.
    for (const file of restored) observer.recordSave(file.receipts ?? []);
  }
  // A moved leaf lives only in memory until the next entry: this one puts it on disk.
  sessionManager.appendCustomEntry(REWIND_MARKER, {
    runId: request.runId,
    rewindId: request.rewindId,
    files: restored.map((file) => file.target),
  });
  const told = tellRewound(sessionManager, restored, request.fileChanges);
  return {
    ...result,
    ...(marker ? { conversation: { leafId: sessionManager.getLeafId() } } : {}),
    told,
  };
}

/** The marker entry of `runId` in the session (`not_found` when the run left none there). */
function runMarker(sessionManager: SessionManager, runId: string) {
  const marker = sessionManager
    .getEntries()
    .find(
      (entry) =>
        entry.type === 'custom' &&
        entry.customType === RUN_MARK &&
        (entry.data as { runId?: unknown } | undefined)?.runId === runId,
    );
  if (marker === undefined) {
    throw new RepaError('not_found', `Run ${runId} has no place recorded in this conversation.`, {
      fix: 'Rewind its files without --conversation (runs from before Repa recorded their place, and rewinds, have none).',
    });
  }
  return marker;
}

/**
 * Appends a file-change notice naming the rewound files (spec R50), unless `mode` is `off`;
 * returns the files told.
 */
function tellRewound(
  sessionManager: SessionManager,
  restored: readonly RewindFile[],
  mode: FileChangesMode,
): string[] {
  const changes: FileChange[] = restored.flatMap((file) => {
    const receipt = file.receipts?.find((one) => one.target === file.target);
    const diff = file.diff?.diff;
    const described: FileChange =
      mode === 'diff' && diff !== undefined && diff.length <= MAX_TOLD_DIFF
        ? {
            target: file.target,
            kind: 'modified',
            previousVersion: null,
            version: null,
            form: 'diff',
            diff,
          }
        : {
            target: file.target,
            kind: 'modified',
            previousVersion: null,
            version: null,
            form: 'notice',
          };
    const here: FileChange = {
      ...described,
      ...(receipt ? { identity: receipt.identity, bytes: receipt.bytes } : {}),
      kind: file.restoreVersion === null ? 'deleted' : 'modified',
      previousVersion: file.movedTo === undefined ? file.runVersion : null,
      version: file.restoreVersion,
    };
    if (file.movedTo === undefined) return [here];
    const away: FileChange = {
      target: file.movedTo,
      kind: 'deleted',
      previousVersion: file.runVersion,
      version: null,
      form: 'notice',
    };
    return [away, here];
  });
  const message = buildFileChangeMessage({ changes }, mode);
  if (!message) return [];
  const [, , ...lines] = message.content.split('\n');
  const content = [
    'The learner rewound the changes of an earlier request: these files are back as they were before it. Read a file again before relying on its content or editing it:',
    ...lines,
  ].join('\n');
  sessionManager.appendCustomMessageEntry(
    message.customType,
    content,
    message.display,
    message.details,
  );
  return changes.map((change) => change.target);
}
