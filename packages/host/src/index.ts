export { getAgentDir as defaultAgentDir } from '@earendil-works/pi-coding-agent';
export { commandSandboxStatus } from './bash-tool.js';
export {
  type BuildCut,
  type BuildLearningContextOptions,
  type BuildProgress,
  type BuiltLearningContext,
  buildLearningContext,
} from './build-learning-context.js';
export type { CompactionOutcome } from './conversation/compact-session.js';
export type {
  PiConversationHostOptions,
  ResumeTarget,
  SendOptions,
} from './conversation/host-options.js';
export type { RewindRequest } from './conversation/rewind-run.js';
export type { DeliverOptions } from './conversation/run-deliveries.js';
export { notLastRun, type RunInHistory } from './conversation/run-marks.js';
export type { RunOutcome } from './conversation/run-outcome.js';
export {
  type LoginProviderOptions,
  type LoginResult,
  type LoginStep,
  loginProvider,
  logoutProvider,
} from './login-provider.js';
export { hideMachineFolders, type MachineFolders } from './machine-folders.js';
export {
  type GrantMaterialInput,
  grantMaterial,
  listGrantedMaterials,
  withdrawMaterial,
} from './materials.js';
export type { ModelChoice } from './model-choice.js';
export { noCredentialsError } from './model-errors.js';
export { type ChooseModelOptions, chooseModel } from './models.js';
export { PiConversationHost } from './pi-conversation-host.js';
export {
  type DecidedModel,
  type ModelRequest,
  PiModels,
  type PiModelsOptions,
  type PiModelsStatus,
} from './pi-models.js';
export {
  addPiPackage,
  listPiPackages,
  type PackageChange,
  type PackagesListing,
  type PackagesScope,
  removePiPackage,
} from './pi-packages.js';
export { recoverSpace, type SpaceRecovery } from './recover-space.js';
export { checkRunInput } from './run-inputs.js';
export { exportSession, type SessionExportFormat, sessionMarkdown } from './session-export.js';
export {
  checkSessionFile,
  createSessionFile,
  openSessionFile,
  SESSION_FILE_LIMIT,
  type SessionFileCheck,
} from './session-files.js';
export { listSessionFiles } from './session-folders.js';
export { citationsShownNow } from './space-citations.js';
export { listSpaceFiles, READER_MAX_CHARS, type ReaderText, readSpaceFile } from './space-files.js';
export { diffSpaceRun, pruneSpaceHistoryOf } from './space-history.js';
export {
  getLearningContext,
  lastProvidedRevision,
  type SetLearningContextInput,
  setLearningContext,
} from './space-learning-context.js';
export {
  createSpaceSession,
  deleteSpaceSession,
  findSessionFile,
  listSpaceSessions,
  readSessionHistory,
  sessionDirectoryOf,
  sessionRunMarks,
} from './space-sessions.js';
export { checkTrustedPiFiles, type KnownToRepa, learningContextDigest } from './space-trust.js';
export { inspectSpaceForTrust } from './trust-preview.js';
