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
  // A move is a delete and a create of one identity: its diff goes from the old path's bytes.
  const movedFrom = (receipt: SaveReceipt) =>
    receipt.previousVersion === null && receipt.version !== null
      ? receipts.find((other) => other.version === null && other.identity === receipt.identity)
      : undefined;
  const moves = new Set(receipts.map(movedFrom).filter((from) => from !== undefined));
  for (const receipt of receipts) {
    if (moves.has(receipt)) continue;
    const after = receipt.version === null ? null : written.get(receipt.target);
    if (after === undefined) continue;
    const from = movedFrom(receipt);
    const replaced = from?.previousVersion ?? receipt.previousVersion;
    try {
      const before =
        replaced === null ? null : await store.history.read(replaced).catch(() => undefined);
      diffs.push(
        before === undefined
          ? {
              target: receipt.target,
              added: 0,
              removed: 0,
              note: 'the replaced bytes are not kept',
            }
          : diffOfSave(from?.target ?? receipt.target, before, after, {}, receipt.target),
      );
    } catch {
      // A diff is a view of the save, never a reason for it to fail.
    }
  }
  return diffs;
}
