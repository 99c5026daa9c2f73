export { isCaseInsensitive, refuseCaseClash, refuseCaseTwins } from './case-names.js';
export { newIdentity, parseIdentity } from './content-address.js';
export type { ContentLocation, ContentSnapshot } from './content-location.js';
export { listedName, shownName } from './listed-name.js';
export { openOutsideFile } from './outside-files.js';
export {
  CONTENT_ACCESS_FILE,
  grantedTo,
  MATERIAL_ID,
  MAX_GRANTS_BYTES,
  type MaterialGrant,
  materialTypeSchema,
  readGrantsFile,
} from './outside-grants.js';
export { INSTRUCTION_FILES, PROTECTED_NAMES, type ProtectedName } from './protected-paths.js';
export {
  type GitFolderEntries,
  hideFromSpaces,
  isGitFolderShape,
  ProtectedPlaces,
} from './protected-places.js';
export { fileTooLarge, MAX_READ_BYTES } from './read-limits.js';
export { holdSpace, type SpaceHold } from './space-gate.js';
export { acquireSpaceLock, type SpaceLock } from './space-lock.js';
export { isProtectedName, parseSpacePath, protectedNameOf, toPosix } from './space-path.js';
export { SpaceResolver } from './space-resolver.js';
