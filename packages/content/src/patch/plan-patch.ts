import { refuseDocumentSave } from '@repa/documents';
import { RepaError } from '@repa/protocol';
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { decodeText } from '../files/index.js';
import { type ContentObserver, checkObserved } from '../observer/index.js';
import type { SaveChange } from '../save/index.js';
import type { ContentSnapshot } from '../space/index.js';
import type { ContentStore } from '../store/index.js';
import { applyUpdateChunks } from './apply-update-chunks.js';
import type { PatchHunk } from './parse-patch.js';

/** The net effect of a patch, ready for one atomic save. */
export interface PatchPlan {
  /** The changes, in the order their targets were first touched. */
  changes: SaveChange[];
  /** New bytes per changed target. */
  contents: Map<string, Buffer>;
  /** Targets created by the patch (the model wrote their whole content). */
  added: Set<string>;
  /** Codex-style summary lines (`A path`, `M path`, `D path`). */
  summary: string[];
  /** Unified diff of every text change. */
  diff: string;
}

interface Slot {
  content: Buffer | null;
  /** The original target whose identity this content carries (a move keeps its identity). */
  carries?: string;
}

const conflict = (message: string) => new RepaError('patch_conflict', message);

/**
 * Applies the hunks in order to an in-memory view of the space (so later hunks see earlier ones,
 * as in Codex) and returns the net changes. Nothing is written here. Every existing file the patch
 * touches (updated, deleted, overwritten by Add or Move) must have been read at its current
 * version: `read_required` / `stale_version` otherwise. A hunk that does not apply throws
 * `patch_conflict`.
 */
export async function planPatch(
  hunks: readonly PatchHunk[],
  store: ContentStore,
  observer: ContentObserver,
): Promise<PatchPlan> {
  const originals = new Map<string, ContentSnapshot | null>();
  const overlay = new Map<string, Slot>();

  const locate = async (path: string) => {
    const location = await store.locateForSave(path);
    return location.target;
  };
  const original = async (target: string) => {
    if (!originals.has(target)) {
      let snapshot: ContentSnapshot | null = null;
      try {
        snapshot = await store.read(target);
      } catch (error) {
        if (!RepaError.isInstance(error)) throw error;
        if (error.code === 'invalid_request') throw conflict(`${target}: ${error.message}`);
        if (error.code !== 'not_found') throw error;
      }
      // A document (or a new file named as one) is never patched: it is read as text (spec R60).
      refuseDocumentSave(target, snapshot?.bytes ?? null);
      if (snapshot !== null) checkObserved(observer, snapshot);
      originals.set(target, snapshot);
    }
    return originals.get(target) ?? null;
  };
  const current = async (target: string) => {
    const slot = overlay.get(target);
    if (slot !== undefined) return slot.content;
    return (await original(target))?.bytes ?? null;
  };
  const carrierOf = (target: string) => {
    const slot = overlay.get(target);
    if (slot !== undefined) return slot.carries;
    return originals.get(target) ? target : undefined;
  };

  for (const hunk of hunks) {
    const target = await locate(hunk.path);
    if (hunk.type === 'add') {
      await original(target);
      const carries = carrierOf(target);
      overlay.set(target, {
        content: Buffer.from(hunk.contents, 'utf8'),
        ...(carries ? { carries } : {}),
      });
      continue;
    }
    const bytes = await current(target);
    if (hunk.type === 'delete') {
      if (bytes === null) throw conflict(`Failed to delete file ${hunk.path}: it does not exist.`);
      overlay.set(target, { content: null });
      continue;
    }
    if (bytes === null)
      throw conflict(`Failed to read file to update ${hunk.path}: it does not exist.`);
    const text = decodeText(bytes);
    if (text === undefined) throw conflict(`Cannot update ${hunk.path}: it is not UTF-8 text.`);
    const updated = Buffer.from(applyUpdateChunks(text, hunk.chunks, hunk.path), 'utf8');
    const carries = carrierOf(target);
    const destination = hunk.moveTo === undefined ? target : await locate(hunk.moveTo);
    if (destination !== target) {
      await original(destination);
      overlay.set(target, { content: null });
    }
    overlay.set(destination, { content: updated, ...(carries ? { carries } : {}) });
  }

  const plan: PatchPlan = {
    changes: [],
    contents: new Map(),
    added: new Set(),
    summary: [],
    diff: '',
  };
  const movedAway = new Set(
    [...overlay]
      .filter(([target, slot]) => slot.carries && slot.carries !== target)
      .map(([, slot]) => slot.carries),
  );
  for (const [target, slot] of overlay) {
    const before = originals.get(target) ?? null;
    if (slot.content === null) {
      if (before === null) continue;
      plan.changes.push({ target, content: null, expectedVersion: before.version });
      if (!movedAway.has(target)) plan.summary.push(`D ${target}`);
    } else {
      const moved = slot.carries !== undefined && slot.carries !== target;
      plan.changes.push({
        target,
        content: slot.content,
        expectedVersion: before?.version ?? null,
        ...(moved ? { identityFrom: slot.carries } : {}),
      });
      plan.contents.set(target, slot.content);
      if (before === null && !moved) plan.added.add(target);
      plan.summary.push(
        `${before === null && !moved ? 'A' : 'M'} ${target}${moved ? ` (moved from ${slot.carries})` : ''}`,
      );
    }
    const oldText = before === null ? '' : decodeText(before.bytes);
    const newText = slot.content === null ? '' : decodeText(slot.content);
    if (oldText !== undefined && newText !== undefined) {
      plan.diff += createTwoFilesPatch(
        before ? target : '/dev/null',
        slot.content ? target : '/dev/null',
        oldText,
        newText,
        undefined,
        undefined,
        {
          headerOptions: FILE_HEADERS_ONLY,
        },
      );
    }
  }
  return plan;
}
