export {
  appendLearningContextSnapshot,
  appendStudySummary,
} from './append-learning-context-snapshot.js';
export { type BareResourceLoaderOptions, bareResourceLoader } from './bare-resource-loader.js';
export {
  decideLearningContextSnapshot,
  type LearningContextSnapshotDecision,
} from './decide-learning-context-snapshot.js';
export {
  buildFileChangeMessage,
  FILE_CHANGES_CUSTOM_TYPE,
  type FileChangeMessage,
} from './file-change-message.js';
export {
  type CompactionFilterOptions,
  filterCompactionPreparation,
} from './filter-compaction-preparation.js';
export { injectFileChangeMessage } from './inject-file-change-message.js';
export {
  LEARNING_CONTEXT_BODY_LIMIT,
  LEARNING_CONTEXT_FILE_LIMIT,
  type LearningContextRecord,
  type LearningContextSourceVersion,
  type LearningContextView,
} from './learning-context-file.js';
export {
  inspectLearningContextSnapshot,
  LEARNING_CONTEXT_CUSTOM_TYPE,
  type LearningContextSnapshotDetails,
  type LearningContextSnapshotInfo,
  renderLearningContext,
} from './learning-context-snapshot.js';
export { type ModelContextOptions, projectSessionContext } from './project-session-context.js';
export { readLearningContext, readLearningContextRecord } from './read-learning-context.js';
export { STUDY_SUMMARY_CUSTOM_TYPE } from './study-summary-message.js';
export { type ModelContextOptionsSource, withModelContext } from './with-model-context.js';
export { writeLearningContext } from './write-learning-context.js';
