export {
  type GrepHit,
  type GrepState,
  grepText,
  LONG_LINE_OVERLAP,
  SLICE_CHARS,
} from './grep-file.js';
export {
  FOLDER_LIST_LIMIT,
  type FolderEntry,
  type FolderListing,
  listSpaceFolder,
} from './list-folder.js';
export { readDocumentForSearch } from './search-file.js';
export type {
  FoundEntry,
  JobScope,
  SearchAnswer,
  SearchJob,
  SearchQuery,
} from './search-jobs.js';
export { compileGlob, compileLinePattern, type LinePattern } from './search-patterns.js';
export { runInWorker } from './search-pool.js';
export {
  DEFAULT_SEARCH_LIMITS,
  MAX_DEPTH,
  type SearchLimits,
  type WalkReport,
  type WalkStart,
} from './space-walk.js';
export { jobScope, resolveWalkStart, spaceRoot } from './walk-start.js';
