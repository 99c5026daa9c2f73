// Building a space's learning context: all of build-learning-context.ts is the folder's to offer.
export * from './build-learning-context.js';
export {
  getLearningContext,
  lastProvidedRevision,
  type SetLearningContextInput,
  setLearningContext,
} from './space-learning-context.js';
