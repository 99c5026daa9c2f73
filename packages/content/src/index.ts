export {
  ContentObserver,
  type ContentObserverOptions,
  type Observation,
} from './content-observer.js';
export { ContentStore, type ContentStoreOptions, type SaveOptions } from './content-store.js';
export type { SaveChange } from './save-planner.js';
export type { RecoverableIntent, RecoveredSave } from './save-recovery.js';
export type { SearchLimits } from './search/space-walk.js';
export type { ContentLocation, ContentSnapshot } from './space-resolver.js';
export type { ContentPatchDetails } from './tools/apply-patch-tool.js';
export { checkSandbox } from './tools/bash-sandbox.js';
export {
  type ContentBashDetails,
  createSandboxedBashTool,
  type SandboxedBashToolOptions,
} from './tools/bash-tool.js';
export { createContentTools } from './tools/create-content-tools.js';
export type { ContentEditDetails } from './tools/edit-tool.js';
export type { ContentFindDetails } from './tools/find-tool.js';
export type { ContentGrepDetails } from './tools/grep-tool.js';
export type { ContentLsDetails } from './tools/ls-tool.js';
export type { ContentReadDetails } from './tools/read-tool.js';
export type { ContentSearchDetails } from './tools/search-result.js';
export type { ContentToolsOptions } from './tools/tool-call.js';
export type { ContentSaveDetails } from './tools/write-tool.js';
