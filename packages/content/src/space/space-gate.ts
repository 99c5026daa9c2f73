import { AsyncLocalStorage } from 'node:async_hooks';
import { RepaError } from '@repa/protocol';

/** How a task holds a space: Repa's own reads and saves share it, a command has it alone. */
export type SpaceHold = 'shared' | 'exclusive';

interface Waiter {
  mode: SpaceHold;
  grant: () => void;
}

/** A hold this async context is inside (a chain, innermost first); `active` until released. */
interface Held {
  root: string;
  mode: SpaceHold;
  active: boolean;
  outer: Held | undefined;
}

/** The reader/writer state of one space; gone from {@link gates} while nobody holds or waits. */
class SpaceGate {
  readers = 0;
  writer = false;
  readonly waiting: Waiter[] = [];

  /** Whether `mode` may be taken now: never past a waiter (so a command is not starved). */
  free(mode: SpaceHold): boolean {
    return mode === 'shared' ? !this.writer : !this.writer && this.readers === 0;
  }

  take(mode: SpaceHold): void {
    if (mode === 'shared') this.readers += 1;
    else this.writer = true;
  }

  /** Grants the waiters at the head of the queue that may go now (first come, first served). */
  grant(): void {
    for (let head = this.waiting[0]; head !== undefined; head = this.waiting[0]) {
      if (!this.free(head.mode)) return;
      this.waiting.shift();
      this.take(head.mode);
      head.grant();
      if (head.mode === 'exclusive') return;
    }
  }

  idle(): boolean {
    return this.readers === 0 && !this.writer && this.waiting.length === 0;
  }
}

/** The gates of this process by real space root: every store and host of a space shares one. */
const gates = new Map<string, SpaceGate>();
const holds = new AsyncLocalStorage<Held>();

function gateOf(root: string): SpaceGate {
  let gate = gates.get(root);
  if (gate === undefined) {
    gate = new SpaceGate();
    gates.set(root, gate);
  }
  return gate;
}

function waitCancelled(): RepaError {
  return new RepaError(
    'cancelled',
    'The call was cancelled while it waited for a command in the space to end; nothing was done.',
  );
}

/** Forgets the gate of `root` once nobody holds or waits for it. */
function forgetIdle(root: string, gate: SpaceGate): void {
  if (gate.idle() && gates.get(root) === gate) gates.delete(root);
}

function acquire(
  root: string,
  gate: SpaceGate,
  mode: SpaceHold,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (gate.waiting.length === 0 && gate.free(mode)) {
    gate.take(mode);
    return Promise.resolve();
  }
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      const at = gate.waiting.indexOf(waiter);
      if (at < 0) return;
      gate.waiting.splice(at, 1);
      // A command that gave up waiting may have held back reads that can go now.
      gate.grant();
      forgetIdle(root, gate);
      reject(waitCancelled());
    };
    const waiter: Waiter = {
      mode,
      grant: () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    gate.waiting.push(waiter);
  });
}

/**
 * Runs `task` holding the space at the real root `root` (spec R74): `shared` for Repa's own reads
 * and saves of the space, `exclusive` for a command, which may change any path of it while it runs
 * (a folder a walk just checked may become a link). A waiting `shared` hold lets a waiting command
 * go first; holds are granted in arrival order otherwise. Within a hold (the same async context),
 * further holds of the same space pass at once; a `shared` hold cannot become `exclusive`.
 * `signal` cancels the wait (`cancelled`), not the task. In-process only: another process on the
 * same space is not held back.
 */
export async function holdSpace<T>(
  root: string,
  mode: SpaceHold,
  task: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  for (let held = holds.getStore(); held !== undefined; held = held.outer) {
    if (!held.active || held.root !== root) continue;
    if (mode === 'exclusive' && held.mode === 'shared') {
      throw new RepaError('internal', 'A command was started inside a read of the same space.');
    }
    return task();
  }
  if (signal?.aborted) throw waitCancelled();
  const gate = gateOf(root);
  await acquire(root, gate, mode, signal);
  const held: Held = { root, mode, active: true, outer: holds.getStore() };
  try {
    return await holds.run(held, task);
  } finally {
    // A promise made inside the task may outlive it; it must not pass as a holder then.
    held.active = false;
    if (mode === 'shared') gate.readers -= 1;
    else gate.writer = false;
    gate.grant();
    forgetIdle(root, gate);
  }
}
