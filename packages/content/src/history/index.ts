export { type HistoryLimits, type PruneReport, pruneHistory } from './prune-history.js';
export { diffOfSave, EVENT_DIFF_LIMITS, type SaveDiffLimits } from './save-diff.js';
export {
  type GroupRecords,
  historyEvicted,
  type KeptChange,
  MAX_SAVE_RECORDS,
  type PreparedHistory,
  SaveHistory,
} from './save-history.js';
export type { SavedChange, SaveRecord } from './save-record.js';
