export { readForSearch } from './search-file.js';
export { compileGlob, compileLinePattern } from './search-patterns.js';
export {
  DEFAULT_SEARCH_LIMITS,
  MAX_DEPTH,
  resolveWalkStart,
  type SearchLimits,
  SpaceWalk,
  startEntry,
  type WalkEntry,
  type WalkReport,
  type WalkStart,
} from './space-walk.js';
