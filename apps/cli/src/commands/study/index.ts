import type { Command } from '../../command.js';
import { studyDraft } from './draft-command.js';
import { studyOverride, studyQuiz } from './quiz-command.js';
import { studyReview } from './review-command.js';
import { reviewCommands } from './review-commands.js';
import { studyStatus } from './status-command.js';

/**
 * `repa study …`: the review on a terminal (`repa study` alone), cards drafted from a passage, due
 * cards and ratings for scripts, progress, an Anki export, and quizzes graded against the passage.
 */
export const studyCommands: Command[] = [
  studyReview,
  ...reviewCommands,
  studyStatus,
  studyDraft,
  studyQuiz,
  studyOverride,
];
