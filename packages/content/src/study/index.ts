export { type AcceptedCard, type AcceptedCards, acceptCards } from './accept-cards.js';
export {
  type CardSource,
  formatCardComment,
  isCardId,
  newCardId,
  parseCardComment,
} from './card-comment.js';
export { type CardSides, formatCard } from './card-markdown.js';
export {
  DEFAULT_SCHEDULER_OPTIONS,
  type SchedulerOptions,
  schedulerOptionsOf,
} from './card-schedule.js';
export type { SourceStatus } from './deck-notes.js';
export {
  type DraftRequest,
  draftRequestText,
  MAX_DRAFTED_CARDS,
  type Passage,
  parseDraftRequest,
  parsePassage,
  passageReadArguments,
  passageText,
} from './draft-request.js';
export { type DraftedCards, type DraftRun, draftedCards } from './drafted-cards.js';
export { type CardKind, type NoteCard, parseNoteCards } from './note-cards.js';
export { answerIdOf, hintOf, isPassageQuote, parseGradeAnswer } from './quiz-grade.js';
export {
  type QuizQuestion,
  type QuizQuestions,
  quizAsDraft,
  quizQuestions,
} from './quiz-questions.js';
export {
  type GradeRequest,
  gradeRequestText,
  MAX_QUIZ_QUESTIONS,
  parseGradeRequest,
  parseQuizRequest,
  type QuizRequest,
  quizRequestText,
} from './quiz-request.js';
export {
  ANSWER_HELP,
  ANSWER_ORIGINS,
  type AnswerEntry,
  type OverrideEntry,
  REVIEW_MODES,
} from './review-log.js';
export {
  type DeckCall,
  type DueCard,
  type ReviewMode,
  type StudyCard,
  StudyDeck,
} from './study-deck.js';
export { studySummary } from './study-summary.js';
export { type TutorPassage, tutorPassage } from './tutor-check.js';
