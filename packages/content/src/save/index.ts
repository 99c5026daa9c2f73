export { IntentSlot, SLOT_NAME } from './intent-slot.js';
export { type ContentStoreHooks, SaveCommitter, type SaveStep } from './save-committer.js';
export { OPERATION_ID, planSave, type SaveChange } from './save-planner.js';
export { previewSave, type SavePreview } from './save-preview.js';
export {
  drainSlot,
  type RecoverableIntent,
  type RecoveredSave,
  SaveRecovery,
} from './save-recovery.js';
