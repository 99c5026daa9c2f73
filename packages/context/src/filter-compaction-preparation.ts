import type { FileChangesMode } from '@repa/protocol';
import { FILE_CHANGES_CUSTOM_TYPE } from './file-change-message.js';
import { LEARNING_CONTEXT_CUSTOM_TYPE } from './learning-context-snapshot.js';
import type { AgentMessage, CompactionPreparation } from './pi-types.js';

/** The Repa sources enabled for the run whose history Pi is compacting. */
export interface CompactionFilterOptions {
  /** `prompts.learningContext`: when false, snapshots are not summarised. */
  learningContext: boolean;
  /** `prompts.fileChanges`: when `off`, file-change notices are not summarised. */
  fileChanges: FileChangesMode;
}

/**
 * Removes disabled automatic Repa messages (learning-context snapshots when `learningContext` is
 * off; file-change notices when `fileChanges` is `off`) from what Pi is about to summarise,
 * keeping user messages, tool results and existing summaries (R46). Call it from the host's
 * `session_before_compact` handler with `event.preparation` and return nothing: it edits
 * `messagesToSummarize` and `turnPrefixMessages` of that object in place, because Pi 0.87.1 hands
 * that same object to its default summariser after the handlers run (`cancel`/`compaction` are the
 * only results Pi reads). Returns how many messages it removed.
 */
export function filterCompactionPreparation(
  preparation: CompactionPreparation,
  options: CompactionFilterOptions,
): { removed: number } {
  const disabled = new Set<string>();
  if (!options.learningContext) disabled.add(LEARNING_CONTEXT_CUSTOM_TYPE);
  if (options.fileChanges === 'off') disabled.add(FILE_CHANGES_CUSTOM_TYPE);
  if (disabled.size === 0) return { removed: 0 };
  const keep = (message: AgentMessage) =>
    !(message.role === 'custom' && disabled.has(message.customType));
  const before = preparation.messagesToSummarize.length + preparation.turnPrefixMessages.length;
  preparation.messagesToSummarize = preparation.messagesToSummarize.filter(keep);
  preparation.turnPrefixMessages = preparation.turnPrefixMessages.filter(keep);
  const after = preparation.messagesToSummarize.length + preparation.turnPrefixMessages.length;
  return { removed: before - after };
}
