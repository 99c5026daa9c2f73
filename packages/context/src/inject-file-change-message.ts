import {
  type SessionManager,
  sessionEntryToContextMessages,
} from '@earendil-works/pi-coding-agent';
import { RepaError } from '@repa/protocol';
import type { FileChangeMessage } from './file-change-message.js';
import type { AgentMessage } from './pi-types.js';

/**
 * Persists `message` with Pi's `appendCustomMessageEntry` and pushes the very message Pi's
 * projection makes of that entry onto `messages` (the `context` event's `event.messages`), so the
 * request in flight carries it too. In Pi 0.87.1 `appendCustomMessageEntry()` + `refreshContext()`
 * inside a `context` handler reaches only the next request (R50; verified fix). The entry lands
 * at the current leaf, after completed tool calls and their results. Returns the entry id.
 */
export function injectFileChangeMessage(
  sessionManager: Pick<SessionManager, 'appendCustomMessageEntry' | 'getEntry'>,
  messages: AgentMessage[],
  message: FileChangeMessage,
): string {
  const entryId = sessionManager.appendCustomMessageEntry(
    message.customType,
    message.content,
    message.display,
    message.details,
  );
  const entry = sessionManager.getEntry(entryId);
  if (!entry) {
    throw new RepaError('internal', `Pi did not store the file-change entry ${entryId}.`);
  }
  messages.push(...sessionEntryToContextMessages(entry));
  return entryId;
}
