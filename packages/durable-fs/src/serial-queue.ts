/**
 * Runs tasks one at a time per key, in the order they were queued; a failed task does not stop
 * the ones after it. Tasks of different keys run independently. In-process only.
 */
export class SerialQueue {
  readonly #tails = new Map<string, Promise<void>>();

  /** Runs `task` after every task queued before it under `key`; settles as `task` does. */
  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const run = previous.then(task);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    try {
      return await run;
    } finally {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }
}
