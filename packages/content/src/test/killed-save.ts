import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ContentStore } from '../store/index.js';
import { expectReceiptsOnDisk, type NodeRun } from './child-node.js';
import { readTextTree } from './temp-space.js';

/**
 * A child script for `writeStoreChild`: it opens the store at its first argument, kills itself with
 * SIGKILL right after step `killAt` (its second) of change `killIndex` (its third), and runs `body`
 * (which sees `store`, and `args`: the arguments after those three).
 */
export const killedStoreChild = (body: string) => (storeUrl: string) =>
  `
import { ContentStore } from ${JSON.stringify(storeUrl)};
const [root, killAt, killIndex, ...args] = process.argv.slice(2);
const store = await ContentStore.open({
  root,
  hooks: {
    step(step, info) {
      if (step === killAt && String(info.index ?? 0) === killIndex) process.kill(process.pid, 'SIGKILL');
    },
  },
});
${body}`;

/**
 * Checks a save's child killed after `step` (`none`: it ran through) and the store reopened at
 * `root`: the child died by SIGKILL having printed nothing, or printed receipts that are on disk;
 * the files are `visible`; no temp file is left; the intent record of `operationId` is kept, and
 * the save recoverable, exactly when `recoverable`. Returns the reopened store and the whole tree.
 */
export async function expectKilledSave(
  root: string,
  {
    step,
    result,
    printed,
    label,
  }: { step: string; result: NodeRun; printed: string; label: string },
  {
    visible,
    operationId,
    recoverable,
  }: {
    visible: Record<string, string>;
    operationId: string;
    recoverable: boolean;
  },
) {
  if (step === 'none') {
    expect(result.code, result.stderr).toBe(0);
    // Nothing reported saved is missing from disk.
    await expectReceiptsOnDisk(root, printed, label);
  } else {
    expect(result.signal, `${label}: ${result.stderr}`).toBe('SIGKILL');
    expect(printed, label).toBe('');
  }
  const store = await ContentStore.open({ root });
  const tree = await readTextTree(root, { withRepa: true });
  expect(await readTextTree(root), label).toEqual(visible);
  expect(
    Object.keys(tree).filter((path) => path.includes('repa-tmp')),
    label,
  ).toEqual([]);
  const kept = recoverable ? [operationId] : [];
  const records = await readdir(join(root, '.repa/intents')).catch(() => []);
  expect(records, label).toEqual(kept.map((id) => `${id}.json`));
  expect(
    (await store.listRecoverable()).map((entry) => entry.operationId),
    label,
  ).toEqual(kept);
  return { store, tree };
}
