// The store's entry: everything of the package but the Pi tools (`@repa/content/tools`). It imports
// no Pi, directly or through any file it reaches (scripts/check-layers.mjs walks it).
export {
  type CitationReading,
  checkAnswerCitations,
  checkCitations,
  citationReadings,
  markChangedSince,
  type ParsedCitation,
  parseCitations,
} from './citations/index.js';
export { type ContentText, readContentText, readPdfBytes } from './documents/index.js';
export {
  diffOfSave,
  EVENT_DIFF_LIMITS,
  type HistoryLimits,
  type PruneReport,
  type SaveDiffLimits,
} from './history/index.js';
export {
  type AddMaterialInput,
  addMaterial,
  listMaterials,
  type MaterialType,
  removeMaterial,
} from './materials/index.js';
export {
  ContentObserver,
  type ContentObserverOptions,
  type Observation,
} from './observer/index.js';
export {
  diffGroup,
  type GroupRewind,
  pruneSpaceHistory,
  type RewindOptions,
  recordCommandChanges,
  rewindGroup,
} from './rewind/index.js';
export type {
  RecoverableIntent,
  RecoveredSave,
  SaveChange,
  SavePreview,
} from './save/index.js';
export {
  FOLDER_LIST_LIMIT,
  type FolderEntry,
  type FolderListing,
  listSpaceFolder,
  type SearchLimits,
} from './search/index.js';
export {
  type ContentLocation,
  type ContentSnapshot,
  hideFromSpaces,
  INSTRUCTION_FILES,
  PROTECTED_NAMES,
  type ProtectedName,
  protectedNameOf,
} from './space/index.js';
export {
  ContentStore,
  type ContentStoreOptions,
  type InspectedFile,
  inspectSpaceFile,
  type SaveOptions,
} from './store/index.js';
export {
  type AcceptedCard,
  type AcceptedCards,
  type AnswerEntry,
  acceptCards,
  answerIdOf,
  type CardKind,
  type CardSides,
  type CardSource,
  DEFAULT_SCHEDULER_OPTIONS,
  type DeckCall,
  type DraftedCards,
  type DraftRequest,
  type DraftRun,
  type DueCard,
  draftedCards,
  draftRequestText,
  formatCard,
  formatCardComment,
  type GradeRequest,
  gradeRequestText,
  hintOf,
  isPassageQuote,
  MAX_DRAFTED_CARDS,
  MAX_QUIZ_QUESTIONS,
  type NoteCard,
  newCardId,
  type Passage,
  parseCardComment,
  parseDraftRequest,
  parseGradeAnswer,
  parseGradeRequest,
  parseNoteCards,
  parsePassage,
  parseQuizRequest,
  passageReadArguments,
  passageText,
  type QuizQuestion,
  type QuizQuestions,
  type QuizRequest,
  quizAsDraft,
  quizQuestions,
  quizRequestText,
  type ReviewMode,
  type SchedulerOptions,
  type SourceStatus,
  type StudyCard,
  StudyDeck,
  schedulerOptionsOf,
  studySummary,
} from './study/index.js';
