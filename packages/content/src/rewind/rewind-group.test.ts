import { lstat, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { versionOf } from '../files/index.js';
import { openTools } from '../test/content-tools.js';
import { readTextTree, removeAll, tempSpace } from '../test/temp-space.js';
import { diffGroup } from './diff-group.js';
import { rewindGroup } from './rewind-group.js';
import { pruneSpaceHistory, recordCommandChanges } from './space-history.js';

const dirs: string[] = [];
afterEach(() => removeAll(dirs));

const NOTES = {
  'glycolysis.md': '# Glycolysis\n\nNet gain of 4 ATP.\nPyruvate is the end product.\n',
  'krebs.md': '# Krebs cycle\n\nIn the mitochondrial matrix.\n',
  'old/atp.md': '# ATP\n\nThe energy currency.\n',
};

/** A space with the notes, and one "run" (operation group `op`) of the real tools over them. */
async function spaceAfterRun() {
  const root = await tempSpace(NOTES);
  dirs.push(root);
  const tools = await openTools(root, { hooks: {} });
  await tools.observe('glycolysis.md', 'krebs.md', 'old/atp.md');
  const edit = await tools.call('edit', {
    path: 'glycolysis.md',
    edits: [{ oldText: 'Net gain of 4 ATP.', newText: 'Net gain of 2 ATP.' }],
  });
  await tools.call('write', { path: 'summary.md', content: '# Summary\n\nTwo ATP net.\n' });
  await tools.call('apply_patch', {
    input: [
      '*** Begin Patch',
      '*** Update File: old/atp.md',
      '*** Move to: energy/atp.md',
      '@@',
      ' # ATP',
      ' ',
      '-The energy currency.',
      '+The energy currency of the cell.',
      '*** Update File: krebs.md',
      '@@',
      '-In the mitochondrial matrix.',
      '+In the mitochondrial matrix (eukaryotes).',
      '*** End Patch',
    ].join('\n'),
  });
  const after = await readTextTree(root);
  return { root, tools, edit, after };
}

describe('rewindGroup', () => {
  it("restores a run's edit, new file and moved file byte for byte, and can be rewound in turn", async () => {
    const { root, tools, edit, after } = await spaceAfterRun();
    const moved = await tools.store.read('energy/atp.md');
    expect(after['energy/atp.md']).toContain('of the cell');
    // The tool's own diff of the edit: from the bytes replaced to the bytes written.
    expect(edit.details.diffs).toEqual([
      expect.objectContaining({
        target: 'glycolysis.md',
        added: 1,
        removed: 1,
        diff: expect.stringContaining('-Net gain of 4 ATP.\n+Net gain of 2 ATP.\n'),
      }),
    ]);

    const preview = await rewindGroup(tools.store, 'op', { rewindId: 'undo', preview: true });
    expect(await readTextTree(root)).toEqual(after);
    expect(preview.files.map((file) => [file.target, file.change, file.status])).toEqual([
      ['glycolysis.md', 'modified', 'planned'],
      ['krebs.md', 'modified', 'planned'],
      ['old/atp.md', 'moved', 'planned'],
      ['summary.md', 'created', 'planned'],
    ]);
    expect(preview.files[0]?.diff?.diff).toContain('-Net gain of 2 ATP.\n+Net gain of 4 ATP.\n');

    const rewind = await rewindGroup(tools.store, 'op', { rewindId: 'undo' });
    expect(rewind.files.map((file) => file.status)).toEqual([
      'restored',
      'restored',
      'restored',
      'restored',
    ]);
    expect(await readTextTree(root)).toEqual(NOTES);
    // The moved file's identity moved back with it.
    expect((await tools.store.read('old/atp.md')).identity).toBe(moved.identity);
    // Each file is its own save with receipts: undo-1 … undo-4.
    expect(rewind.files.flatMap((file) => file.receipts?.map((r) => r.operationId))).toEqual([
      'undo-1',
      'undo-2',
      'undo-3',
      'undo-3',
      'undo-4',
    ]);

    const again = await rewindGroup(tools.store, 'undo', { rewindId: 'redo' });
    expect(again.files.every((file) => file.status === 'restored')).toBe(true);
    expect(await readTextTree(root)).toEqual(after);
  });

  it('refuses a file edited by hand after the run with stale_version and leaves it, restoring the others', async () => {
    const { root, tools, after } = await spaceAfterRun();
    const byHand = '# Glycolysis\n\nNet gain of 2 ATP (checked in the book).\n';
    await writeFile(join(root, 'glycolysis.md'), byHand);
    const rewind = await rewindGroup(tools.store, 'op', { rewindId: 'undo' });
    const refused = rewind.files.find((file) => file.target === 'glycolysis.md');
    expect(refused).toMatchObject({
      status: 'refused',
      runVersion: versionOf(Buffer.from(after['glycolysis.md'] as string)),
      currentVersion: versionOf(Buffer.from(byHand)),
      error: {
        code: 'stale_version',
        details: {
          target: 'glycolysis.md',
          expectedVersion: versionOf(Buffer.from(after['glycolysis.md'] as string)),
          currentVersion: versionOf(Buffer.from(byHand)),
        },
      },
    });
    expect(await readTextTree(root)).toEqual({ ...NOTES, 'glycolysis.md': byHand });

    // Asked again, the restored files are unchanged and the edited one is still refused;
    // with force it is written over, as a new save that keeps the hand-edited bytes.
    const again = await rewindGroup(tools.store, 'op', { rewindId: 'undo2' });
    expect(again.files.map((file) => file.status)).toEqual([
      'refused',
      'unchanged',
      'unchanged',
      'unchanged',
    ]);
    const forced = await rewindGroup(tools.store, 'op', {
      rewindId: 'undo3',
      files: ['glycolysis.md'],
      force: true,
    });
    expect(forced.files).toMatchObject([{ status: 'restored', forced: true }]);
    expect(await readTextTree(root)).toEqual(NOTES);
    await rewindGroup(tools.store, 'undo3', { rewindId: 'undo4' });
    expect((await readTextTree(root))['glycolysis.md']).toBe(byHand);
  });

  it('says history_evicted for bytes the limits evicted, and keeps the file as it is', async () => {
    const { root, tools, after } = await spaceAfterRun();
    const report = await pruneSpaceHistory(tools.store, { maxBytes: 0, maxAgeMs: 86_400_000 });
    expect(report.files).toBeGreaterThan(0);
    const rewind = await rewindGroup(tools.store, 'op', { rewindId: 'undo' });
    const byTarget = Object.fromEntries(rewind.files.map((file) => [file.target, file]));
    expect(byTarget['glycolysis.md']?.error).toMatchObject({
      code: 'history_evicted',
      details: { target: 'glycolysis.md', problem: 'evicted' },
    });
    // A created file needs no kept bytes: it is removed.
    expect(byTarget['summary.md']?.status).toBe('restored');
    const { 'summary.md': _, ...rest } = after;
    expect(await readTextTree(root)).toEqual(rest);
  });

  it('never trusts kept bytes that are not what they name: damaged, or a symlink', async () => {
    const { root, tools } = await spaceAfterRun();
    const kept = join(root, '.repa/history/bytes');
    const [first, second] = (await readdir(kept)).sort();
    await rm(join(kept, first as string));
    await writeFile(join(kept, first as string), 'not the bytes this name promises\n');
    await rm(join(kept, second as string));
    await symlink('/etc/hostname', join(kept, second as string));
    const rewind = await rewindGroup(tools.store, 'op', { rewindId: 'undo' });
    const problems = rewind.files
      .filter((file) => file.error?.code === 'history_evicted')
      .map((file) => file.error?.details?.problem);
    expect(problems.sort()).toEqual(['damaged', 'damaged']);
  });

  it('keeps the bytes by hard link (no copy) and records the saves with what they replaced', async () => {
    const root = await tempSpace({ 'a.md': 'one\n' });
    dirs.push(root);
    const tools = await openTools(root, { hooks: {} });
    const a = await tools.store.read('a.md');
    const inode = (await lstat(join(root, 'a.md'))).ino;
    await tools.store.save(
      [{ target: 'a.md', content: Buffer.from('two\n'), expectedVersion: a.version }],
      {
        operationId: 'r-1',
      },
    );
    expect((await lstat(join(root, '.repa/history/bytes', a.version))).ino).toBe(inode);
    const log = await readFile(join(root, '.repa/history/saves.log'), 'utf8');
    const [header, , line] = log.split('\n');
    expect(header).toBe('repa.saves-log/1');
    expect(JSON.parse((line as string).slice(9))).toMatchObject({
      operationId: 'r-1',
      kind: 'save',
      changes: [{ target: 'a.md', previousVersion: a.version, kept: true, bytes: 4 }],
    });
  });

  it("lists a command's changes as not rewindable, and diffs a run from its kept bytes", async () => {
    const { root, tools } = await spaceAfterRun();
    await writeFile(join(root, 'out.txt'), 'made by a command\n');
    await recordCommandChanges(tools.store, 'op-9', [
      {
        target: 'out.txt',
        kind: 'modified',
        previousVersion: null,
        version: versionOf(Buffer.from('made by a command\n')),
        form: 'notice',
      },
    ]);
    const diff = await diffGroup(tools.store, 'op');
    expect(diff.commands).toEqual([{ target: 'out.txt', operationId: 'op-9' }]);
    expect(diff.files.map((file) => [file.target, file.movedTo, file.change])).toEqual([
      ['glycolysis.md', undefined, 'modified'],
      ['krebs.md', undefined, 'modified'],
      ['old/atp.md', 'energy/atp.md', 'moved'],
      ['summary.md', undefined, 'created'],
    ]);
    expect(diff.files[2]?.diff.diff).toBe(
      '--- old/atp.md\n+++ energy/atp.md\n@@ -1,3 +1,3 @@\n # ATP\n \n-The energy currency.\n+The energy currency of the cell.\n',
    );
    // The run's result is gone from disk after a hand edit: the diff says so, never guesses.
    await writeFile(join(root, 'krebs.md'), 'rewritten\n');
    const one = await diffGroup(tools.store, 'op', 'krebs.md');
    expect(one.files[0]?.diff.note).toBe(
      'the bytes the run wrote (the file changed since) are no longer kept',
    );
    const rewind = await rewindGroup(tools.store, 'op', { rewindId: 'undo', preview: true });
    expect(rewind.commands).toEqual([{ target: 'out.txt', operationId: 'op-9' }]);
  });
});
