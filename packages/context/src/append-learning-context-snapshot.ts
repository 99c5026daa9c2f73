import type { SessionManager } from '@earendil-works/pi-coding-agent';
import type { LearningContextView } from './learning-context-file.js';
import {
  LEARNING_CONTEXT_CUSTOM_TYPE,
  renderLearningContext,
  snapshotDetails,
} from './learning-context-snapshot.js';

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
