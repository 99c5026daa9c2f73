import type { Command } from '../../command.js';
import { studyCheck } from './check-command.js';
import { studyDraft } from './draft-command.js';
import { studyOverride, studyQuiz } from './quiz-command.js';
import { studyReview } from './review-command.js';
import { reviewCommands } from './review-commands.js';
import { studyStatus } from './status-command.js';

/**
 * `repa study …`: the review on a terminal (`repa study` alone), cards drafted from a passage, due
 * cards and ratings for scripts, progress, an Anki export, and quizzes and tutor checks graded
 * against the passage.
 */
export const studyCommands: Command[] = [
  studyReview,
  ...reviewCommands,
  studyStatus,
  studyDraft,
  studyQuiz,
  studyCheck,
  studyOverride,
];

export { checkOnce } from './check-command.js';
export { gradeLine, passageLines } from './grade-lines.js';
