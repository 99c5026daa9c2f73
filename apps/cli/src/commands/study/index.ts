import type { Command } from '../../command.js';
import { studyDraft } from './draft-command.js';
import { studyReview } from './review-command.js';
import { reviewCommands } from './review-commands.js';
import { studyStatus } from './status-command.js';

/**
 * `repa study …`: the review on a terminal (`repa study` alone), cards drafted from a passage, due
 * cards and ratings for scripts, progress and an Anki export.
 */
export const studyCommands: Command[] = [studyReview, ...reviewCommands, studyStatus, studyDraft];
