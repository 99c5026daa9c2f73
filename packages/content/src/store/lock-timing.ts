/**
 * After a task of this store the space lock stays taken while no other process waits for it (its
 * mark, see `FileLock.wanted`, checked every `LOCK_CHECK_MS`), for at most `LOCK_KEEP_MS` (less than
 * proper-lockfile's 2.5 s refresh of a held lock): a burst of reads and saves takes it once; a
 * waiting process gets it within one check (plus its own retry step).
 */
export const LOCK_CHECK_MS = 25;
export const LOCK_KEEP_MS = 2_000;
/**
 * How long a store that let go of the lock for a waiter waits before it asks again: longer than a
 * waiter's longest pause between attempts (50 ms ± 50%), so the waiter gets its turn.
 */
export const HAND_OVER_MS = 80;
