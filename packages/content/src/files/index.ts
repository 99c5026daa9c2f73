export {
  decodeText,
  excerptOf,
  versionOf,
  versionOfYielding,
  YIELD_EVERY,
} from './content-bytes.js';
export {
  ensureDir,
  exists,
  isStrayRepaTemp,
  openOwnFile,
  probeTimestampStep,
  realDirExists,
  removeTemp,
  statKeyOf,
  TEMP_MARK,
  toPosix,
  writeNewFile,
  writeRepaFile,
} from './repa-files.js';
export {
  dataCorrupt,
  isSocketOpenError,
  notRegularFile,
  problemOf,
  readDataFile,
} from './special-files.js';
