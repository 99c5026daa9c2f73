export {
  type BuildCut,
  type BuildLearningContextOptions,
  type BuildProgress,
  type BuiltLearningContext,
  buildLearningContext,
} from './build-learning-context.js';
export {
  getLearningContext,
  lastProvidedRevision,
  type SetLearningContextInput,
  setLearningContext,
} from './space-learning-context.js';
