export { errnoCode, ioError } from './errors.js';
export { acquireFileLock, type FileLock, type FileLockOptions } from './file-lock.js';
export {
  CREATE_EXCLUSIVE,
  type FsHandle,
  type FsLayer,
  nodeFsLayer,
  READ_FOLLOW,
  READ_NO_FOLLOW,
} from './fs-layer.js';
export { ignoreFolderContents } from './ignore-folder.js';
export {
  createFile,
  isReplaceTempName,
  type ReplaceFileOptions,
  replaceFile,
  type SyncDirectoryOptions,
  type SyncLevel,
  syncDirectory,
} from './replace-file.js';
export { SerialQueue } from './serial-queue.js';
