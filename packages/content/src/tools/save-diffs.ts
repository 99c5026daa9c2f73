import type { SaveDiff, SaveReceipt } from '@repa/protocol';
import { diffOfSave } from '../history/index.js';
import type { ContentStore } from '../store/index.js';

/**
 * What each receipt's save changed, from the bytes it replaced (kept by the store) and the bytes
 * it wrote (`written`, by target), bounded for an event. Never throws: a diff that cannot be made
 * is left out, or says why in its `note`.
 */
export async function diffsOfSave(
  store: ContentStore,
  receipts: readonly SaveReceipt[],
  written: ReadonlyMap<string, Uint8Array>,
): Promise<SaveDiff[]> {
  const diffs: SaveDiff[] = [];
  for (const receipt of receipts) {
    const after = receipt.version === null ? null : written.get(receipt.target);
    if (after === undefined) continue;
    try {
      const before =
        receipt.previousVersion === null
          ? null
          : await store.history.read(receipt.previousVersion).catch(() => undefined);
      diffs.push(
        before === undefined
          ? {
              target: receipt.target,
              added: 0,
              removed: 0,
              note: 'the replaced bytes are not kept',
            }
          : diffOfSave(receipt.target, before, after),
      );
    } catch {
      // A diff is a view of the save, never a reason for it to fail.
    }
  }
  return diffs;
}
