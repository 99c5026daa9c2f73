export { checkRunCitations } from './run-citations.js';
export {
  markRun,
  notLastRun,
  RESUME_MESSAGE,
  RESUME_NOTE,
  RUN_MARK,
  type RunInHistory,
  resumeModeOf,
} from './run-marks.js';
export { exportSession, type SessionExportFormat, sessionMarkdown } from './session-export.js';
export {
  checkSessionFile,
  createSessionFile,
  openSessionFile,
  SESSION_FILE_LIMIT,
  type SessionFileCheck,
  sessionFileEntries,
} from './session-files.js';
export { listSessionFiles, sessionIdOfFileName } from './session-folders.js';
export {
  createSpaceSession,
  deleteSpaceSession,
  findSessionFile,
  findSessionState,
  listSpaceSessions,
  readSessionHistory,
  sessionDirectoryOf,
  sessionRunMarks,
} from './space-sessions.js';
