import { RepaError } from '@repa/protocol';
import { excerptOf } from '../files/index.js';
import type { ContentSnapshot } from '../space/index.js';
import type { ContentObserver } from './content-observer.js';

/** Throws `read_required` or `stale_version` unless this host saw `snapshot`'s version. */
export function checkObserved(observer: ContentObserver, snapshot: ContentSnapshot): void {
  const seen = observer.get(snapshot.target);
  const details = {
    target: snapshot.target,
    currentVersion: snapshot.version,
  };
  if (seen === undefined) {
    throw new RepaError(
      'read_required',
      `${snapshot.target} has not been read in this conversation.`,
      {
        details,
      },
    );
  }
  if (seen.version !== snapshot.version) {
    throw new RepaError('stale_version', `${snapshot.target} changed since it was read.`, {
      details: { ...details, expectedVersion: seen.version, excerpt: excerptOf(snapshot.bytes) },
    });
  }
}
