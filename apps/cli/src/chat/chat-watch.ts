import type { RunInfo } from '@repa/protocol';
import { type FollowedRun, followRun } from '../follow-run.js';
import type { Chat } from './chat-slash.js';

/**
 * Follows the chat's session (`session.subscribe`, again after a reconnection) and calls `onRun`
 * once with each run another client starts there (the page, another terminal): neither the chat's
 * own requests nor steer and follow-up messages, which show in the run they reach. Returns the
 * unsubscribe.
 */
export function watchSession(chat: Chat, onRun: (run: RunInfo) => void): () => void {
  const seen = new Set<string>();
  const adopt = (run: RunInfo) => {
    if (run.sessionId !== chat.sessionId || run.targetRunId) return;
    if (chat.own?.has(run.requestId) || seen.has(run.runId)) return;
    seen.add(run.runId);
    onRun(run);
  };
  const params = { space: chat.space, sessionId: chat.sessionId };
  const subscribe = () =>
    chat.client
      .request('session.subscribe', params)
      .then(({ runs }) => {
        for (const run of runs) adopt(run);
      })
      .catch(() => undefined); // A daemon without it: the chat shows its own runs only.
  const offRun = chat.client.on('session.run', ({ run }) => adopt(run));
  const offConnect = chat.client.on('connect', () => void subscribe());
  void subscribe();
  return () => {
    offRun();
    offConnect();
  };
}

/** Follows and prints a run another client started (`run.subscribe`). */
export function followOther(chat: Chat, runId: string): FollowedRun {
  return followRun(chat.client, chat.printer, async () => ({
    ...(await chat.client.request('run.subscribe', { runId })),
    resubmitted: false,
  }));
}
