/**
 * @internal The memory unfinished frames pin across all connections (each decoder's
 * `heldBytes`), bounded in total so that many connections each holding a large half frame cannot
 * exhaust the daemon's memory.
 */
export class PendingBytes {
  /** The bound on the total. */
  readonly limit: number;
  #total = 0;
  #peak = 0;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** The largest total recorded so far. */
  get peak(): number {
    return this.#peak;
  }

  /**
   * Records that one connection now holds `to` bytes instead of `from`. Refuses (returns false and
   * records nothing) when it grows and would pass the limit.
   */
  move(from: number, to: number): boolean {
    if (to > from && this.#total - from + to > this.limit) return false;
    this.#total += to - from;
    this.#peak = Math.max(this.#peak, this.#total);
    return true;
  }
}
