import type { FileChangesMode } from '@repa/protocol';
import { xmlTag } from './xml-text.js';

const COMMON =
  'Files you have read may change outside this conversation, for example when the user edits them. Before your next step Repa (not the user) may then add a message listing the changed files; it covers only files in the space that you read, and never repeats changes you saved yourself.';

const BY_MODE: Record<Exclude<FileChangesMode, 'off'>, string> = {
  'on-demand':
    'In this mode it gives only their paths: your earlier view of those files is out of date, so read a file again before relying on it or editing it.',
  notice:
    'In this mode it gives, for each file, its path and whether it was modified or deleted, with its new size and version, but not its text: read a file again before relying on it or editing it.',
  diff: 'In this mode it gives, for each file, a bounded unified diff against the text you read when that text is known; otherwise (binary content, a partial read, a diff too large) it gives a location hint, and you should read the file again.',
};

/**
 * The `fileChanges` section: one paragraph telling the model what a file-change notice (a
 * `repa.file-changes` message, delivered as a user-role message) looks like in `mode` (R50–R53).
 */
export function fileChangesSection(mode: Exclude<FileChangesMode, 'off'>): string {
  return xmlTag('file_changes', `${COMMON} ${BY_MODE[mode]}`);
}
