export { getAgentDir as defaultAgentDir } from '@earendil-works/pi-coding-agent';
export { commandSandboxStatus } from './bash-settings.js';
export type {
  CompactionOutcome,
  DeliverOptions,
  PiConversationHostOptions,
  ResumeTarget,
  RewindRequest,
  RunOutcome,
  SendOptions,
} from './conversation/index.js';
export { PiConversationHost } from './conversation/index.js';
export {
  type BuildCut,
  type BuildLearningContextOptions,
  type BuildProgress,
  type BuiltLearningContext,
  buildLearningContext,
  getLearningContext,
  lastProvidedRevision,
  type SetLearningContextInput,
  setLearningContext,
} from './learning-context/index.js';
export { hideMachineFolders, type MachineFolders } from './machine-folders.js';
export {
  type ChooseModelOptions,
  chooseModel,
  type DecidedModel,
  type LoginProviderOptions,
  type LoginResult,
  type LoginStep,
  loginProvider,
  logoutProvider,
  type ModelChoice,
  type ModelRequest,
  noCredentialsError,
  PiModels,
  type PiModelsOptions,
  type PiModelsStatus,
} from './models/index.js';
export {
  addPiPackage,
  listPiPackages,
  type PackageChange,
  type PackagesListing,
  type PackagesScope,
  removePiPackage,
} from './packages/index.js';
export { checkRunInput } from './run-inputs.js';
export {
  createSpaceSession,
  deleteSpaceSession,
  exportSession,
  findSessionFile,
  listSpaceSessions,
  notLastRun,
  type RunInHistory,
  readSessionHistory,
  type SessionExportFormat,
  sessionRunMarks,
} from './sessions/index.js';
export {
  inspectSpaceForTrust,
  type KnownToRepa,
  learningContextDigest,
} from './trust/index.js';
