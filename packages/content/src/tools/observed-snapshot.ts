import { refuseDocumentSave } from '@repa/documents';
import { checkObserved } from '../observer/index.js';
import type { ContentLocation, ContentSnapshot } from '../space/index.js';
import { refuseSkillFile } from './skill-files.js';
import type { ContentToolsOptions } from './tool-options.js';

/**
 * The snapshot a saving tool works on: it must be a space object this host observed at exactly
 * its current version (`read_required` / `stale_version` otherwise), so nothing is overwritten blind.
 */
export async function observedSnapshot(
  options: ContentToolsOptions,
  address: string,
): Promise<ContentSnapshot> {
  await refuseSkillFile(options, address);
  // An outside material or a protected place is refused before its text is compared (design R69).
  const location = await options.store.locateForSave(address);
  const snapshot = (await knownSnapshot(options, location)) ?? (await options.store.read(address));
  // A document is read as its text: the model never saw bytes it could edit (spec R60).
  refuseDocumentSave(snapshot.target, snapshot.bytes);
  checkObserved(options.observer, snapshot);
  return snapshot;
}

/**
 * The snapshot this host already holds for `location`, without reading the file: when the observer
 * kept the whole text it saw and the file still has the settled stat key it was seen with (the rule
 * change checks use: then it has those bytes). Otherwise `undefined`.
 */
async function knownSnapshot(
  { store, observer }: ContentToolsOptions,
  location: ContentLocation,
): Promise<ContentSnapshot | undefined> {
  const seen = observer.get(location.target);
  if (seen?.text === undefined || seen.statKey === undefined || seen.partial) return undefined;
  const { identity } = location;
  if (identity === undefined || seen.identity !== identity) return undefined;
  const readAt = Date.now();
  const statKey = await store.space.statKeyOf(location.target);
  if (statKey !== seen.statKey) return undefined;
  const bytes = Buffer.from(seen.text, 'utf8');
  return { ...location, identity, bytes, statKey, version: seen.version, readAt };
}
