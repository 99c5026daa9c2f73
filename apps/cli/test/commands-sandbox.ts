import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createRepaClient, daemonPaths } from '@repa/protocol/node';
import { type CliSandbox, createSandbox, repaJson, writeFiles } from '@repa/test-kit';
import { afterAll, beforeAll, expect } from 'vitest';

/** The offline responder's name as `repa` shows it. */
export const OFFLINE = 'repa-offline (local responder, no language model)';

/** A sandbox whose daemon the file starts (with no model) before its tests and stops after. */
export interface CommandsSandbox {
  sandbox: CliSandbox;
  /** A fresh space folder inside the sandbox. */
  newSpace(name: string, files?: Record<string, string>): string;
  /** Writes a space's learning context through the sandbox's daemon (`context.set`). */
  writeLearningContext(space: string, input: { body: string; sources: string[] }): Promise<void>;
}

/** Registers the hooks that start and stop the daemon of a fresh sandbox for this test file. */
export function useCommandsSandbox(): CommandsSandbox {
  const sandbox = createSandbox();

  beforeAll(async () => {
    const { code, json, stderr } = await repaJson<{ started: boolean; model: string }>(sandbox, [
      'daemon',
      'start',
    ]);
    expect(code, stderr).toBe(0);
    expect(json).toMatchObject({ started: true, running: true });
    expect(json).not.toHaveProperty('model');
  });

  afterAll(async () => {
    const { code, json } = await repaJson<{ stopped: boolean }>(sandbox, ['daemon', 'stop']);
    expect(code).toBe(0);
    expect(json.stopped).toBe(true);
    rmSync(sandbox.root, { recursive: true, force: true });
  });

  return {
    sandbox,
    newSpace(name, files = {}) {
      const space = join(sandbox.root, name);
      writeFiles(space, { 'README.md': `# ${name}\n`, ...files });
      return space;
    },
    async writeLearningContext(space, input) {
      const client = createRepaClient({ socketPath: daemonPaths(sandbox.appDir).socketPath });
      try {
        await client.connect();
        const { context } = await client.request('context.get', { space });
        await client.request('context.set', {
          space,
          ...input,
          expectedRevision: context?.revision ?? null,
        });
      } finally {
        await client.close();
      }
    },
  };
}
