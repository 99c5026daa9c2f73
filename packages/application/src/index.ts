// Re-exported for the CLI, which may import only application and protocol (layering check).
export {
  /** The model the daemon would choose from Pi's configuration (`repa doctor`). */
  chooseModel,
  /** Pi's default agent directory (`repa doctor`). */
  defaultAgentDir,
  /** The embedded offline model's name. */
  OFFLINE_MODEL_ID,
  /** Reads a space's learning context (`repa context show`). */
  readLearningContext,
  /** Writes a space's learning context (`repa demo`). */
  writeLearningContext,
} from '@repa/host';
/** Repa's application directory (spec R15), re-exported for the CLI. */
export { resolveAppDirectory } from '@repa/settings';
export { RepaApplication, type RepaApplicationOptions } from './repa-application.js';
export { type RunDaemonOptions, type RunningDaemon, runDaemon } from './run-daemon.js';
export {
  type Acceptance,
  type AcceptedSettings,
  RunLedger,
  type RunRequest,
} from './run-ledger.js';
export type {
  ConnectionContext,
  RepaHandledMethod,
  RepaHandler,
  RepaHandlers,
} from './server/repa-handlers.js';
export {
  type RepaServer,
  type RepaServerOptions,
  startRepaServer,
} from './server/start-repa-server.js';
