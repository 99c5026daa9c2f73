export {
  countLines,
  decodeText,
  excerptOf,
  textHead,
  versionOf,
  versionOfYielding,
  YIELD_EVERY,
} from './content-bytes.js';
export { formatSize } from './format-size.js';
export {
  APPEND_OWN_LOG,
  dataCorrupt,
  ensureDir,
  exists,
  isStrayRepaTemp,
  logChecksum,
  openOwnFile,
  problemOf,
  readDataFile,
  realDirExists,
  TEMP_MARK,
  writeRepaFile,
} from './repa-files.js';
export { isSocketOpenError, notRegularFile } from './special-files.js';
export { probeTimestampStep, statKeyOf } from './stat-keys.js';
