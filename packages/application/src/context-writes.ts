import { loadHost } from './load-host.js';
import type { SpaceTrust } from './space-trust.js';

/**
 * The learning-context writes of each space (`context.set`, `context.build`), one after another so
 * that each write's revision check and write pair up.
 */
export class ContextWrites {
  readonly #trust: SpaceTrust;
  /** The last write of each space, which the next one waits for. */
  readonly #writes = new Map<string, Promise<void>>();

  constructor(trust: SpaceTrust) {
    this.#trust = trust;
  }

  /**
   * Runs `write` (writing `body`) after the space's earlier writes. The body is recorded as one
   * Repa wrote before the write: a context Repa wrote is never taken for one shipped (spec R13).
   */
  async write<T>(space: string, body: string, write: () => Promise<T>): Promise<T> {
    const digest = (await loadHost()).learningContextDigest(body);
    const previous = this.#writes.get(space) ?? Promise.resolve();
    const written = previous.then(() => {
      this.#trust.addContext(space, digest);
      return write();
    });
    const settled = written.then(
      () => undefined,
      () => undefined,
    );
    this.#writes.set(space, settled);
    try {
      return await written;
    } finally {
      if (this.#writes.get(space) === settled) this.#writes.delete(space);
    }
  }
}
