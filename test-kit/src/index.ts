export {
  CliProcess,
  type CliResult,
  type CliSandbox,
  cliMain,
  createSandbox,
  jsonLines,
  nodeBinary,
  type RepaOptions,
  repa,
  repaJson,
  sandboxArgs,
  spawnRepa,
  writeFiles,
} from './cli-harness.js';
export { REFUSAL, SLOW_MODEL, type SlowModel, startSlowModel } from './slow-model.js';
export { appendStudyLog, studyLog } from './study-log.js';
