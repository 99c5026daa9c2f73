export { diffGroup } from './diff-group.js';
export { type GroupRewind, type RewindOptions, rewindGroup } from './rewind-group.js';
export { netChanges, type RunFileChange } from './run-changes.js';
export { pruneSpaceHistory, recordCommandChanges } from './space-history.js';
