export type { RepaApplicationOptions } from './application-options.js';
export { type DoctorFactsOptions, doctorFacts } from './doctor-facts.js';
export { RepaApplication } from './repa-application.js';
export { type RunDaemonOptions, type RunningDaemon, runDaemon } from './run-daemon.js';
export { RunLedger } from './runs/run-ledger.js';
export type { Acceptance, AcceptedSettings, RunRequest } from './runs/run-request.js';
export type {
  ConnectionContext,
  RepaHandledMethod,
  RepaHandler,
  RepaHandlers,
  RepaTransport,
} from './server/repa-handlers.js';
export {
  type RepaServer,
  type RepaServerOptions,
  startRepaServer,
} from './server/start-repa-server.js';
