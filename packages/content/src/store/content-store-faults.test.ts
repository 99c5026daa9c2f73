import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type FsLayer, nodeFsLayer } from '@repa/durable-fs';
import { describe, expect, it } from 'vitest';
import { readTextTree, tempSpaces } from '../test/temp-space.js';
import { ContentStore } from './content-store.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const folder = tempSpaces();

const ENOSPC_CALLS = new Set(['open', 'write', 'mkdir']);

/** The real filesystem, failing from the `failAt`-th call on (once, or every call after it too). */
function faultyFs(plan: { failAt: number; sticky: boolean }) {
  const state = { armed: false, calls: 0, failed: [] as string[] };
  const layer = {} as Record<string, unknown>;
  for (const [name, call] of Object.entries(nodeFsLayer)) {
    layer[name] = async (...args: unknown[]) => {
      if (state.armed) {
        const index = state.calls++;
        if (index === plan.failAt || (plan.sticky && index > plan.failAt)) {
          state.failed.push(name);
          // close(2) releases the descriptor even when it reports an error.
          if (name === 'close')
            await (call as (...a: unknown[]) => Promise<unknown>)(...args).catch(() => undefined);
          const code = ENOSPC_CALLS.has(name) ? 'ENOSPC' : 'EIO';
          throw Object.assign(new Error(`${code}: injected failure of ${name}`), { code });
        }
      }
      return (call as (...a: unknown[]) => Promise<unknown>)(...args);
    };
  }
  return { fs: layer as unknown as FsLayer, state };
}

const OLD = { 'a.md': 'old a\n', 'c.md': 'old c\n' };
const NEW_A = 'new a\n';
const NEW_B = 'new b\n';

/** One save of three changes (modify, create in a new folder, delete) with a failure injected. */
async function runWithFault(failAt: number, sticky: boolean) {
  const root = await folder(OLD);
  const { fs, state } = faultyFs({ failAt, sticky });
  const store = await ContentStore.open({ root, fs });
  const a = await store.read('a.md');
  const c = await store.read('c.md');
  state.armed = true;
  let outcome: 'saved' | string;
  try {
    await store.save(
      [
        { target: 'a.md', content: Buffer.from(NEW_A), expectedVersion: a.version },
        { target: 'b/new.md', content: Buffer.from(NEW_B), expectedVersion: null },
        { target: 'c.md', content: null, expectedVersion: c.version },
      ],
      { operationId: 'op-fault' },
    );
    outcome = 'saved';
  } catch (error) {
    outcome = (error as { code?: string }).code ?? 'no code';
  }
  state.armed = false;
  return { root, outcome, calls: state.calls, failed: state.failed };
}

/** Checks the invariants after a restart on the real filesystem. */
async function checkAfterRestart(root: string, outcome: string) {
  const store = await ContentStore.open({ root });
  const tree = await readTextTree(root, { withRepa: true });
  const visible = await readTextTree(root);
  const allNew = { 'a.md': NEW_A, 'b/new.md': NEW_B };
  // Old or new, per object and across the save; never a mix, never partial bytes.
  expect([OLD, allNew]).toContainEqual(visible);
  if (outcome === 'saved') expect(visible).toEqual(allNew);
  else expect(outcome).toBe('io_error');
  // No temp file anywhere, no pending intent; what is left is listed as recoverable.
  expect(Object.keys(tree).filter((path) => path.includes('repa-tmp'))).toEqual([]);
  const records = await readdir(join(root, '.repa/intents')).catch(() => []);
  const recoverable = await store.listRecoverable();
  expect(recoverable.map((entry) => `${entry.operationId}.json`)).toEqual(records);
  if (records.length > 0) {
    expect(visible).toEqual(OLD);
    expect(recoverable[0]?.changes.map((change) => change.version)).toEqual([
      sha(NEW_A),
      sha(NEW_B),
      null,
    ]);
  }
  if (visible['a.md'] === NEW_A) {
    // Identities followed the save: the new file has one, the deleted one is gone.
    const index = JSON.parse(await readFile(join(root, '.repa/identities.json'), 'utf8')) as {
      objects: Record<string, string>;
    };
    expect(Object.values(index.objects).sort()).toEqual(['a.md', 'b/new.md']);
  }
  return { visible, records: records.length };
}

describe('ContentStore.save', () => {
  describe('injected ENOSPC / EIO at every filesystem call', () => {
    it('leaves old or new bytes, never a mix, no temp files, and a recoverable record', async () => {
      const clean = await runWithFault(Number.MAX_SAFE_INTEGER, false);
      expect(clean.outcome).toBe('saved');
      const total = clean.calls;
      expect(total).toBeGreaterThan(20);
      const outcomes: Record<string, number> = {};
      for (const sticky of [false, true]) {
        for (let failAt = 0; failAt < total; failAt++) {
          const run = await runWithFault(failAt, sticky);
          expect(run.failed.length, `call ${failAt} should have failed`).toBeGreaterThan(0);
          const after = await checkAfterRestart(run.root, run.outcome);
          const key = `${run.outcome}:${after.visible['a.md'] === NEW_A ? 'new' : 'old'}:${after.records}`;
          outcomes[key] = (outcomes[key] ?? 0) + 1;
        }
      }
      // Every kind of ending happened: refused with nothing changed, refused with a recoverable
      // record (cleanup failed too), refused but completed on restart (failure after the commit
      // point), and saved despite a failure after the renames.
      expect(Object.keys(outcomes).sort()).toEqual([
        'io_error:new:0',
        'io_error:old:0',
        'io_error:old:1',
        'saved:new:0',
      ]);
    });
  });
});
