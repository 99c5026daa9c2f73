import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunInfo } from '@repa/protocol';

/** A fresh app directory in a temp dir (short, so the socket path fits). */
export function tempAppDirectory(): string {
  return mkdtempSync(join(tmpdir(), 'repa-app-'));
}

/** A valid run as the ledger reports it. */
export function runInfo(overrides: Partial<RunInfo> = {}): RunInfo {
  return {
    runId: 'r1',
    requestId: 'q1',
    space: '/spaces/a',
    sessionId: 's1',
    input: { type: 'text', text: 'hello' },
    status: 'running',
    attempt: 1,
    promptSettings: {
      base: null,
      append: '',
      projectInstructions: false,
      skillCatalog: true,
      environment: true,
      learningContext: true,
      fileChanges: 'on-demand',
    },
    settingsRevisions: { application: 0, space: 0, session: 0 },
    acceptedAt: '2026-12-02T10:00:00.000Z',
    ...overrides,
  };
}

/** A promise with its resolve function. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
