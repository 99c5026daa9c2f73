import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

/** What {@link withIoTrapped} saw: the function's result (if it returned) and every trapped read. */
export interface TrappedRun<T> {
  /** The function's result, or `undefined` when it threw. */
  result: T | undefined;
  /** The error it threw, if any. */
  error: unknown;
  /** Every clock, environment or disk access attempted during the call, e.g. `fs.readFileSync`. */
  reads: string[];
}

class TrappedReadError extends Error {}

/**
 * Run `fn` synchronously while the clock (`Date`, `performance.now`, `process.hrtime`), the
 * environment (`process.env`, `process.platform`, `process.cwd`, …), randomness (`Math.random`)
 * and every function of `node:fs` and `node:fs/promises` throw and are recorded. Named ESM
 * imports of those functions are trapped too (`syncBuiltinESMExports`). Everything is restored
 * afterwards. Test-only: this patches Node's own globals and built-ins, never Repa code.
 */
export function withIoTrapped<T>(fn: () => T): TrappedRun<T> {
  const reads: string[] = [];
  // The traps only fire while `fn` runs, so Node's own bookkeeping around it is unaffected.
  let armed = false;
  const fail = (what: string): never => {
    reads.push(what);
    throw new TrappedReadError(`trapped read: ${what}`);
  };
  const guard =
    <A extends unknown[], R>(what: string, real: (...args: A) => R) =>
    (...args: A): R =>
      armed ? fail(what) : real(...args);

  const restore: Array<() => void> = [];
  const define = (target: object, key: PropertyKey, descriptor: PropertyDescriptor) => {
    const own = Object.getOwnPropertyDescriptor(target, key);
    Object.defineProperty(target, key, { configurable: true, ...descriptor });
    restore.push(() => {
      if (own) Object.defineProperty(target, key, own);
      else delete (target as Record<PropertyKey, unknown>)[key];
    });
  };
  const wrap = (target: object, key: string, what: string) => {
    const real = (target as Record<string, (...args: unknown[]) => unknown>)[key];
    if (typeof real !== 'function') return;
    define(target, key, { value: guard(what, real.bind(target)), writable: true });
  };

  for (const [target, prefix] of [
    [fs, 'fs'],
    [fs.promises, 'fs.promises'],
  ] as const) {
    for (const key of Object.keys(target)) {
      if (/^[a-z]/.test(key)) wrap(target, key, `${prefix}.${key}`);
    }
  }
  const RealDate = Date;
  define(globalThis, 'Date', {
    writable: true,
    value: new Proxy(RealDate, {
      construct: (target, args, newTarget) =>
        armed ? fail('new Date()') : Reflect.construct(target, args, newTarget),
      apply: (target, self, args) => (armed ? fail('Date()') : Reflect.apply(target, self, args)),
      get: (target, key, receiver) =>
        key === 'now' ? guard('Date.now', RealDate.now) : Reflect.get(target, key, receiver),
    }),
  });
  wrap(performance, 'now', 'performance.now');
  wrap(Math, 'random', 'Math.random');
  wrap(process, 'hrtime', 'process.hrtime');
  wrap(process, 'cwd', 'process.cwd');
  const realEnv = process.env;
  define(process, 'env', {
    writable: true,
    value: new Proxy(realEnv, {
      get: (target, key) => (armed ? fail(`process.env.${String(key)}`) : Reflect.get(target, key)),
      has: (target, key) => (armed ? fail(`process.env.${String(key)}`) : Reflect.has(target, key)),
      ownKeys: (target) => (armed ? fail('process.env') : Reflect.ownKeys(target)),
    }),
  });
  for (const key of ['platform', 'arch', 'argv', 'execPath'] as const) {
    const real = process[key];
    define(process, key, { get: () => (armed ? fail(`process.${key}`) : real) });
  }
  // Copy the wrapped functions into named ESM imports such as `import { readFileSync }`.
  syncBuiltinESMExports();

  armed = true;
  try {
    return { result: fn(), error: undefined, reads };
  } catch (error) {
    return { result: undefined, error, reads };
  } finally {
    armed = false;
    for (const undo of restore.reverse()) undo();
    syncBuiltinESMExports();
  }
}
