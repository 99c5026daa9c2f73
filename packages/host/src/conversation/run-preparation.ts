import type { ImageContent } from '@earendil-works/pi-ai';
import type { AgentSession, SessionManager } from '@earendil-works/pi-coding-agent';
import { type ContentObserver, type ContentStore, StudyDeck, studySummary } from '@repa/content';
import {
  appendLearningContextSnapshot,
  appendStudySummary,
  buildFileChangeMessage,
  decideLearningContextSnapshot,
  type LearningContextView,
  readLearningContext,
} from '@repa/context';
import {
  type AttachedSource,
  type FileChangesMode,
  RepaError,
  type RestrictedItem,
  type RunEvent,
  type SaveReceipt,
} from '@repa/protocol';
import { readAttachments, resolveRunImages } from '../run-inputs.js';
import { learningContextDigest } from '../trust/index.js';
import type { ActiveRun } from './active-run.js';
import type { SendOptions } from './host-options.js';
import { cancelledOutcome, type RunOutcome } from './run-outcome.js';

/** Where a run's learning context is read from and whether it may be given. */
export interface RunLearningContextSource {
  /** The space root. */
  space: string;
  /** Whether the learner trusts the space. */
  trusted: boolean;
  /** In an untrusted space, the digests of the learning contexts Repa wrote there. */
  knownContexts?: readonly string[] | undefined;
  /** Reads the learning context instead of `readLearningContext` (a test seam). */
  reader?: ((space: string) => Promise<LearningContextView | null>) | undefined;
}

/**
 * The space's learning context for a run, or null. Spec R13: an untrusted space's learning
 * context counts only when Repa wrote it there; another one is added to `restricted` instead.
 * Throws when it cannot be read (the run fails before its message enters Pi history, R31).
 */
async function readRunLearningContext(
  source: RunLearningContextSource,
  restricted: RestrictedItem[],
): Promise<LearningContextView | null> {
  const view = await (source.reader ?? readLearningContext)(source.space);
  if (
    view &&
    !source.trusted &&
    !source.knownContexts?.includes(learningContextDigest(view.body))
  ) {
    if (!restricted.some((item) => item.kind === 'learning-context')) {
      restricted.push(shippedContext());
    }
    return null;
  }
  return view;
}

/** What a run's request carries beside its text. */
export interface RunRequestInputs {
  images: ImageContent[];
  attached: { text: string; sources: AttachedSource[] } | undefined;
}

/**
 * Reads what a run is given before its message enters Pi history (R31): the space's learning
 * context from `from.context` (none when it is `undefined`) into `run.view` and, unless
 * `prompts.studySummary` is off, the summary of the space's study progress into
 * `run.studySummary` (the review log read with the `study.*` defaults), then the request's
 * images and attached documents. `stop`: the outcome that ends the run instead, failed when
 * something cannot be read, cancelled when the run was cancelled meanwhile.
 */
export async function readRunInputs(
  run: ActiveRun,
  options: SendOptions,
  from: {
    store: ContentStore;
    observer: ContentObserver;
    context: RunLearningContextSource | undefined;
  },
): Promise<RunRequestInputs | { stop: RunOutcome }> {
  if (from.context !== undefined) {
    try {
      run.view = await readRunLearningContext(from.context, run.restricted);
      // Spec R113: the study summary is a part of the learning context the learner can turn off.
      if (run.settings.studySummary !== false) {
        run.studySummary = studySummary((await StudyDeck.of(from.store).status({})).sources);
      }
    } catch (error) {
      return { stop: { status: 'failed', error: RepaError.fromUnknown(error).toWire() } };
    }
  }
  if (run.cancelRequested) return { stop: cancelledOutcome(undefined) };
  // Images and attached documents are read now, before the message enters Pi history.
  try {
    const images = await resolveRunImages(from.store, options.images ?? []);
    const attached = options.attachments?.length
      ? await readAttachments(from.store, from.observer, options.attachments)
      : undefined;
    return { images, attached };
  } catch (error) {
    return { stop: { status: 'failed', error: RepaError.fromUnknown(error).toWire() } };
  }
}

/**
 * Appends the run's learning context as a snapshot when the model's view lacks it (R42) and tells
 * it as a `context-snapshot` event.
 */
export function appendContextSnapshot(sessionManager: SessionManager, run: ActiveRun): void {
  const { view } = run;
  const decision = decideLearningContextSnapshot(sessionManager, view, run.settings);
  if (!decision.append || !view) return;
  appendLearningContextSnapshot(sessionManager, view);
  run.emit({
    type: 'context-snapshot',
    revision: view.revision,
    chars: view.body.length,
    sources: view.sources,
  });
}

/**
 * Persists a notice of the files this host read that changed on disk, if any (R50–R53), and
 * tells it as a `file-change-notice` event.
 */
export async function appendFileChangeNotice(
  observer: ContentObserver,
  sessionManager: SessionManager,
  mode: FileChangesMode,
  run: { receipts: readonly SaveReceipt[]; emit: (event: RunEvent) => void },
): Promise<void> {
  if (mode === 'off') return;
  const message = buildFileChangeMessage(await observer.checkChanges(mode), mode, {
    receipts: run.receipts,
  });
  if (!message) return;
  sessionManager.appendCustomMessageEntry(
    message.customType,
    message.content,
    message.display,
    message.details,
  );
  run.emit({ type: 'file-change-notice', changes: message.details.changes });
}

/**
 * What a run adds to the history before its message: the learning context's snapshot and the
 * study summary when either changed, then the files changed since the last request (R50).
 */
export async function appendRunNotices(
  observer: ContentObserver,
  sessionManager: SessionManager,
  settings: { fileChanges: FileChangesMode },
  run: ActiveRun,
): Promise<void> {
  appendContextSnapshot(sessionManager, run);
  if (run.studySummary !== null) appendStudySummary(sessionManager, run.studySummary);
  await appendFileChangeNotice(observer, sessionManager, settings.fileChanges, run);
}

/** The `customType` of the message that tells the model the day changed (see {@link appendDateNotice}). */
export const DATE_NOTICE = 'repa.date';

/**
 * Tells the model today's date in a message before the user's (hidden from the history views):
 * for a run whose reused system prompt shows an earlier day, so the prompt that earlier requests
 * carried, and the provider's cache of it, stays as it is.
 */
export function appendDateNotice(sessionManager: SessionManager, today: string): void {
  sessionManager.appendCustomMessageEntry(DATE_NOTICE, `Today's date is now ${today}.`, false, {
    date: today,
  });
}

/**
 * Makes the history continuable: a failed or aborted last reply is left out of the model's view
 * with a context edit (kept in the raw session, like Pi's own retry does). `invalid_request` when
 * there is no history or it ends with a complete reply.
 */
export function prepareResume(session: AgentSession, sessionManager: SessionManager): void {
  const projection = sessionManager.buildSessionProjection();
  const last = projection.messages.at(-1);
  if (!last) {
    throw new RepaError('invalid_request', 'The session has no history to resume.', {
      fix: 'Submit a new request instead.',
    });
  }
  if (last.role !== 'assistant') return;
  const stopReason = 'stopReason' in last ? last.stopReason : undefined;
  const entry = projection.entries.findLast((item) => item.messages.includes(last));
  if ((stopReason !== 'error' && stopReason !== 'aborted') || !entry) {
    throw new RepaError(
      'invalid_request',
      "The session's history ends with a complete reply; there is nothing to resume.",
      { fix: 'Submit a new request instead.' },
    );
  }
  sessionManager.appendContextEdit(entry.sourceEntry.id, null);
  session.refreshContext();
}

/** The restriction item of a learning context Repa did not write in an untrusted space. */
function shippedContext(): RestrictedItem {
  return {
    kind: 'learning-context',
    path: '.repa/learning-context.json',
    detail: 'A learning context Repa did not write here; not given to the model.',
  };
}
