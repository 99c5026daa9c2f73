import type { SessionManager } from '@earendil-works/pi-coding-agent';
import type { LearningContextView } from './learning-context-file.js';
import {
  LEARNING_CONTEXT_CUSTOM_TYPE,
  renderLearningContext,
  snapshotDetails,
} from './learning-context-snapshot.js';
import type { ProjectionSource } from './pi-types.js';
import { projectSessionContext } from './project-session-context.js';
import { isStudySummaryMessage, STUDY_SUMMARY_CUSTOM_TYPE } from './study-summary-message.js';

/**
 * Appends a learning-context snapshot of `view` at the current leaf with Pi's
 * `appendCustomMessageEntry` (a `custom_message` entry of type `repa.learning-context`, hidden in
 * Pi's TUI) and returns its entry id. Call it before handing the user message to Pi (R32).
 */
export function appendLearningContextSnapshot(
  sessionManager: Pick<SessionManager, 'appendCustomMessageEntry'>,
  view: LearningContextView,
): string {
  return sessionManager.appendCustomMessageEntry(
    LEARNING_CONTEXT_CUSTOM_TYPE,
    renderLearningContext(view),
    false,
    snapshotDetails(view),
  );
}

/**
 * Appends `summary` as a study-summary message (hidden in Pi's TUI and Repa's history) unless the
 * latest one in the model's working view says the same, and tells whether it did. Call it before
 * handing the user message to Pi, only when the run gives the summary (spec R113).
 */
export function appendStudySummary(
  sessionManager: ProjectionSource & Pick<SessionManager, 'appendCustomMessageEntry'>,
  summary: string,
): boolean {
  const { messages } = projectSessionContext(sessionManager, {
    learningContext: true,
    studySummary: true,
  });
  const latest = messages.findLast(isStudySummaryMessage);
  if (latest !== undefined && latest.content === summary) return false;
  sessionManager.appendCustomMessageEntry(STUDY_SUMMARY_CUSTOM_TYPE, summary, false, {});
  return true;
}
