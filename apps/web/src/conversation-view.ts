import {
  type ApprovalAnswer,
  type ModelDecision,
  type RepaClient,
  RepaError,
  type RewindResult,
  type V1Params,
} from '@repa/protocol';
import { html } from 'htm/preact';
import type { RefObject } from 'preact';
import { useState } from 'preact/hooks';
import { Composer, type Delivery } from './composer.js';
import { useComposerImages } from './composer-images.js';
import { RunItem } from './conversation.js';
import { HistoryList, type SessionHistory } from './history-view.js';
import type { LiveRuns } from './live-runs.js';
import { describeError } from './panels.js';
import { overridesOf, type RunChoiceValue } from './run-choice.js';
import { isActive } from './run-status.js';
import { runViewOf, type SteerView } from './run-views.js';
import { SessionActions } from './session-actions.js';
import type { SpaceSessions } from './space-sessions.js';
import { RestrictedList, Welcome } from './spaces.js';

/**
 * The conversation: the open session's saved turns, then the runs followed live, and the composer;
 * the first screen while no space is open. `notice` is the line under it (an error, a hint).
 */
export function ConversationView({
  client,
  places,
  live,
  saved,
  thread,
  next,
  picked,
  onPick,
  notice,
  onNotice,
}: {
  client: RepaClient;
  places: SpaceSessions;
  live: LiveRuns;
  saved: SessionHistory;
  /** The thread's element and scroll handler, kept at its end (stick-to-bottom.ts). */
  thread: { ref: RefObject<HTMLElement>; onScroll: () => void };
  next: ModelDecision | undefined;
  /** Documents picked in the documents panel: attached to the next request. */
  picked: string[];
  onPick: (picked: string[]) => void;
  notice: string;
  onNotice: (text: string) => void;
}) {
  const { space, sessionId } = places;
  const { runs, steers } = live;
  const images = useComposerImages(onNotice);
  // The next request's model choice.
  const [choice, setChoice] = useState<RunChoiceValue>({});

  // Undo (rewind-view.ts): the daemon's rewind; afterwards the panels are read again, and the
  // history too when the conversation went back.
  const rewind = async (params: V1Params<'run.rewind'>) =>
    (await client.request('run.rewind', params)).rewind;
  const rewound = (result: RewindResult) => {
    live.bump();
    if (result.conversation && space) void places.select(space.root, sessionId);
  };

  /** The open session, or a new one started (and shown) for a request or the tutor switch. */
  const ensureSession = async (): Promise<string | undefined> => {
    if (!space || sessionId !== undefined) return sessionId;
    const { session } = await client.request('session.create', { space: space.root });
    places.started(space.root, session.sessionId);
    return session.sessionId;
  };

  /**
   * Sends the composer's text: `new` when no reply streams; while one does, `queue` (after it) or
   * `steer` (into it, at its next step).
   */
  const submit = async (delivery: Delivery, text: string): Promise<boolean> => {
    if (!space || text === '') return false;
    onNotice('');
    try {
      const id = await ensureSession();
      if (id === undefined) return false;
      const follower = client.followRun(() =>
        client.request('run.submit', {
          space: space.root,
          sessionId: id,
          requestId: live.mine(crypto.randomUUID()),
          input: {
            type: 'text',
            text,
            ...(images.images.length ? { images: images.input() } : {}),
            ...(picked.length > 0 && delivery !== 'steer'
              ? { attachments: picked.map((path) => ({ path })) }
              : {}),
          },
          ...(delivery === 'new' ? {} : { delivery }),
          ...(delivery === 'steer' ? {} : overridesOf(choice)),
        }),
      );
      const { run } = await follower.accepted;
      images.clear();
      if (delivery !== 'steer') onPick([]);
      if (delivery === 'steer' || delivery === 'followUp')
        void live.followSteer(follower, run, text);
      else void live.follow(follower, runViewOf(run));
      if (delivery === 'queue') live.bump();
      if (delivery !== 'steer') setChoice({});
      return true;
    } catch (error) {
      if (RepaError.isInstance(error) && error.code === 'no_active_run') {
        onNotice('The reply ended before you steered it: send your message as a new request.');
      } else {
        onNotice(describeError(error));
      }
      return false;
    }
  };

  /** Answers a run's approval request; a refusal of the daemon is shown under the conversation. */
  const approve = async (
    runId: string,
    approvalId: string,
    answer: ApprovalAnswer,
    reason?: string,
  ) => {
    try {
      const result = await client.request('run.approve', {
        runId,
        approvalId,
        answer,
        ...(reason ? { reason } : {}),
      });
      if (!result.answered && result.approval.decision) {
        onNotice(`Another client answered first: the change was ${result.approval.decision}.`);
      }
    } catch (error) {
      onNotice(describeError(error));
    }
  };

  /** A steer that arrived after its run ended, queued as a request of its own. */
  const queueInstead = async (steer: SteerView) => {
    if (await submit('queue', steer.text)) {
      live.dropSteer(steer.runId);
    }
  };

  const open = space ? places.sessions.find((item) => item.sessionId === sessionId) : undefined;
  return html`<main class="conversation" aria-label="Conversation">
        ${
          space
            ? html`${
                open
                  ? html`<${SessionActions} client=${client} space=${space.root} session=${open} onChanged=${() => void places.load(space.root)} onDeleted=${() => void places.open(space.root)} />`
                  : html`<h2 class="visually-hidden">Conversation</h2>`
              }
                <div class="thread" ref=${thread.ref} onScroll=${thread.onScroll}>
                ${
                  !space.trusted && space.restricted.length > 0
                    ? html`<section class="notice restricted" aria-labelledby="restricted-title">
                        <h3 id="restricted-title">This space is restricted</h3>
                        <p>
                          It holds things that would change what runs or what the model is told.
                          Until you trust it, they have no effect:
                        </p>
                        <${RestrictedList} items=${space.restricted} />
                        <button type="button" onClick=${places.trust}>Trust this space</button>
                      </section>`
                    : ''
                }
                <${HistoryList} history=${saved} live=${runs.map((view) => view.runId)} onRetry=${live.retry} onResume=${live.resume} onRewind=${rewind} onRewound=${rewound} />
                <ol class="live">
                  ${runs.map(
                    (view) =>
                      html`<${RunItem} key=${view.runId} view=${view} steers=${steers.filter(
                        (steer) => steer.targetRunId === view.runId,
                      )} onCancel=${live.cancel} onRetry=${live.retry} onResume=${live.resume} onQueueSteer=${queueInstead} onRewind=${rewind} onRewound=${rewound} onApprove=${approve} />`,
                  )}
                </ol>
                </div>
                <${Composer} client=${client} space=${space.root} sessionId=${sessionId} next=${next} active=${runs.some((view) => isActive(view.status))} picked=${picked} onPick=${onPick} images=${images} choice=${choice} onChoice=${setChoice} onKept=${live.bump} session=${ensureSession} submit=${submit} />`
            : html`<${Welcome} spaces=${places.known} onOpen=${(root: string) => void places.open(root)} />`
        }
        <p class="notice-line" role="alert">${notice}</p>
      </main>`;
}
