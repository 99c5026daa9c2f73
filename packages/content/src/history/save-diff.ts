import type { SaveDiff } from '@repa/protocol';
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';
import { decodeText } from '../files/index.js';

/** The bounds of one save's diff. */
export interface SaveDiffLimits {
  /** The longest diff text kept (characters); a longer one is cut at a line and `truncated`. */
  maxChars?: number;
  /** The largest side (bytes) diffed line by line; a larger file gets a note instead. */
  maxBytes?: number;
  /** How long the line diff may take (ms); past it, a note (spec R74). */
  timeoutMs?: number;
}

/** The bounds of a diff in an event or a page: a screenful or two. */
export const EVENT_DIFF_LIMITS: Required<SaveDiffLimits> = {
  maxChars: 16_000,
  maxBytes: 1024 * 1024,
  timeoutMs: 100,
};

/**
 * What a save changed in `target`, from the bytes it replaced (`null`: a new file) and the bytes it
 * wrote (`null`: deleted): lines added and removed and a unified diff (`--- target`/`+++ target`,
 * `/dev/null` for a new or deleted file; from `target` to `newTarget` for a move, the diff then
 * named by `newTarget`), bounded; binary or oversized bytes get a `note`.
 */
export function diffOfSave(
  target: string,
  before: Uint8Array | null,
  after: Uint8Array | null,
  limits: SaveDiffLimits = {},
  newTarget: string = target,
): SaveDiff {
  const { maxChars, maxBytes, timeoutMs } = { ...EVENT_DIFF_LIMITS, ...limits };
  const size = Math.max(before?.length ?? 0, after?.length ?? 0);
  if (size > maxBytes) {
    return {
      target: newTarget,
      added: 0,
      removed: 0,
      note: `too large for a line diff (${size} bytes)`,
    };
  }
  const oldText = before === null ? '' : decodeText(before);
  const newText = after === null ? '' : decodeText(after);
  if (oldText === undefined || newText === undefined) {
    return { target: newTarget, added: 0, removed: 0, note: 'binary bytes: no line diff' };
  }
  const patch = structuredPatch(
    before === null ? '/dev/null' : target,
    after === null ? '/dev/null' : newTarget,
    oldText,
    newText,
    undefined,
    undefined,
    { context: 3, timeout: timeoutMs },
  );
  if (patch === undefined) {
    return { target: newTarget, added: 0, removed: 0, note: 'too many changes for a line diff' };
  }
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added += 1;
      else if (line.startsWith('-')) removed += 1;
    }
  }
  if (patch.hunks.length === 0) return { target: newTarget, added, removed };
  const text = formatPatch(patch, FILE_HEADERS_ONLY);
  if (text.length <= maxChars) return { target: newTarget, added, removed, diff: text };
  const cut = text.lastIndexOf('\n', maxChars);
  return {
    target: newTarget,
    added,
    removed,
    diff: text.slice(0, cut + 1),
    truncated: true,
  };
}
