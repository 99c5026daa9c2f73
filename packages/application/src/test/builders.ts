import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh app directory in a temp dir (short, so the socket path fits). */
export function tempAppDirectory(): string {
  return mkdtempSync(join(tmpdir(), 'repa-app-'));
}

export { runInfo } from '@repa/protocol/testing';

/** A promise with its resolve function. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
