import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { type FsLayer, nodeFsLayer } from '@repa/durable-fs';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import type { SaveStep } from '../save/index.js';
import { readTextTree, readTree, tempSpaces } from '../test/temp-space.js';
import { ContentStore } from './content-store.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const bytes = (text: string) => Buffer.from(text, 'utf8');
const space = tempSpaces();

/** A change of an intent record as the store writes it; `overrides` make it hostile. */
function change(target: string, from: string | null, to: string | null, overrides = {}) {
  return {
    target,
    identity: `repa:document/${target.replace(/[^A-Za-z0-9]/gu, '-')}`,
    previousVersion: from === null ? null : sha(from),
    version: to === null ? null : sha(to),
    content: to === null ? null : bytes(to).toString('base64'),
    temp: to === null ? null : `.${basename(target)}.repa-tmp-op-evil-0`,
    mode: null,
    createdDirs: [],
    ...overrides,
  };
}

/** A space `root` with a sibling folder `outside` holding `victim.txt` and an empty `made/`. */
async function spaceWithOutside() {
  const parent = await space();
  const root = join(parent, 'space');
  const outside = join(parent, 'outside');
  await mkdir(join(root, '.repa/intents'), { recursive: true });
  await mkdir(join(outside, 'made'), { recursive: true });
  await writeFile(join(outside, 'victim.txt'), 'victim\n');
  await writeFile(join(root, 'a.md'), 'A\n');
  await symlink(outside, join(root, 'link'));
  return { root, outside };
}

async function writeRecord(root: string, name: string, changes: unknown[], extra = {}) {
  const record = {
    format: 'repa.content-intent/1',
    operationId: 'op-evil',
    createdAt: '2026-01-01T00:00:00.000Z',
    status: 'pending',
    changes,
    ...extra,
  };
  await writeFile(join(root, '.repa/intents', `${name}.json`), JSON.stringify(record));
}

describe('ContentStore recovery of untrusted records', () => {
  // Each record also lists `a.md` as already saved, so a trusting recovery would roll it forward.
  const applied = () => change('a.md', 'a\n', 'A\n', { temp: '.a.md.repa-tmp-op-evil-0' });
  const CASES: [string, () => unknown[], string?][] = [
    [
      'a target "../victim.txt"',
      () => [applied(), change('../outside/victim.txt', 'victim\n', null)],
    ],
    [
      'an absolute temp',
      () => [change('new.md', null, 'planted\n', { temp: '/tmp/planted', mode: 0o755 })],
    ],
    [
      'a temp in another folder',
      () => [
        applied(),
        change('new.md', null, 'planted\n', { temp: '../outside/.new.md.repa-tmp-op-evil-1' }),
      ],
    ],
    [
      'created folders outside the space',
      () => [
        change('made/new.md', null, 'n\n', {
          temp: 'made/.new.md.repa-tmp-op-evil-0',
          createdDirs: ['../outside/made'],
        }),
      ],
    ],
    ['a symlinked target', () => [applied(), change('link/victim.txt', 'victim\n', null)]],
    ['a set-uid mode', () => [change('new.md', null, 'n\n', { mode: 0o4755 })]],
    ['an operation id that is not the file name', () => [applied()], 'op-other'],
  ];
  for (const [what, changes, fileName] of CASES) {
    it(`quarantines a record with ${what}: nothing outside is touched and nothing is created`, async () => {
      const { root, outside } = await spaceWithOutside();
      await writeRecord(root, fileName ?? 'op-evil', changes());
      const store = await ContentStore.open({ root });
      expect(store.recovered).toMatchObject([
        { operationId: fileName ?? 'op-evil', outcome: 'quarantined', receipts: [] },
      ]);
      const [listed] = await store.listRecoverable();
      expect(listed).toMatchObject({ operationId: fileName ?? 'op-evil', status: 'quarantined' });
      expect(listed?.reason).toMatch(/./u);
      expect(await readTextTree(outside)).toEqual({ 'victim.txt': 'victim\n' });
      expect(await readdir(join(outside, 'made'))).toEqual([]);
      expect(await readdir(root)).toEqual(['.repa', 'a.md', 'link']);
      expect(await readFile(join(root, 'a.md'), 'utf8')).toBe('A\n');
      expect(await readdir(join(root, '.repa/intents'))).toEqual([`${fileName ?? 'op-evil'}.json`]);
    });
  }

  it('looks at no more than 10,000 intent records per open', async () => {
    const root = await space({ 'a.md': 'a\n' });
    await mkdir(join(root, '.repa/intents'), { recursive: true });
    execFileSync('bash', ['-c', 'seq -f "op-%05g.json" 10001 | xargs touch', 'bash'], {
      cwd: join(root, '.repa/intents'),
    });
    const store = await ContentStore.open({ root });
    expect(store.recovered).toHaveLength(10_000);
    expect(store.recovered.at(-1)).toMatchObject({
      operationId: 'op-10000',
      outcome: 'quarantined',
    });
  });

  it('quarantines and lists a torn record instead of ignoring it', async () => {
    const root = await space({ 'a.md': 'a\n' });
    await mkdir(join(root, '.repa/intents'), { recursive: true });
    await writeFile(join(root, '.repa/intents/op-torn.json'), '{"format":"repa.content-in');
    const store = await ContentStore.open({ root });
    expect(store.recovered).toMatchObject([{ operationId: 'op-torn', outcome: 'quarantined' }]);
    expect(await store.listRecoverable()).toMatchObject([
      { operationId: 'op-torn', status: 'quarantined', changes: [] },
    ]);
    expect(await readdir(join(root, '.repa/intents'))).toEqual(['op-torn.json']);
    await store.discardRecoverable('op-torn');
    expect(await store.listRecoverable()).toEqual([]);
  });

  it('reports a save rolled forward on open with its receipts', async () => {
    const root = await space({ 'a.md': 'A\n', 'b.md': 'b\n' });
    await mkdir(join(root, '.repa/intents'), { recursive: true });
    const changes = [
      change('a.md', 'a\n', 'A\n', { temp: '.a.md.repa-tmp-run-1-1-0' }),
      change('b.md', 'b\n', 'B\n', { temp: '.b.md.repa-tmp-run-1-1-1' }),
    ];
    await writeRecord(root, 'run-1-1', changes, { operationId: 'run-1-1' });
    const store = await ContentStore.open({ root });
    expect(store.recovered).toMatchObject([
      {
        operationId: 'run-1-1',
        outcome: 'rolled-forward',
        receipts: [
          { target: 'a.md', version: sha('A\n') },
          { target: 'b.md', version: sha('B\n'), previousVersion: sha('b\n') },
        ],
      },
    ]);
    expect(await readTextTree(root)).toEqual({ 'a.md': 'A\n', 'b.md': 'B\n' });
  });
});

describe('ContentStore with an unsafe .repa folder', () => {
  it('refuses reads that assign identities and saves with space_unsafe when .repa is a symlink', async () => {
    const parent = await space();
    const root = join(parent, 'space');
    const outside = join(parent, 'outside');
    await mkdir(root);
    await mkdir(outside);
    await writeFile(join(root, 'a.md'), 'a\n');
    await symlink(outside, join(root, '.repa'));
    const store = await ContentStore.open({ root });
    expect((await repaErrorOf(store.read('a.md'))).code).toBe('space_unsafe');
    expect(
      (
        await repaErrorOf(
          store.save([{ target: 'b.md', content: bytes('b\n'), expectedVersion: null }]),
        )
      ).code,
    ).toBe('space_unsafe');
    expect(await readdir(outside)).toEqual([]);
    expect(await readdir(root)).toEqual(['.repa', 'a.md']);
  });

  it('refuses a save with space_unsafe when .repa/intents is a symlink', async () => {
    const parent = await space();
    const root = join(parent, 'space');
    const outside = join(parent, 'outside');
    await mkdir(join(root, '.repa'), { recursive: true });
    await mkdir(outside);
    await symlink(outside, join(root, '.repa/intents'));
    const store = await ContentStore.open({ root });
    const error = await repaErrorOf(
      store.save([{ target: 'b.md', content: bytes('b\n'), expectedVersion: null }]),
    );
    expect(error.code).toBe('space_unsafe');
    expect(await readdir(outside)).toEqual([]);
    expect(await readTextTree(root)).toEqual({});
  });
});

describe('ContentStore after the renames of a save', () => {
  /** The real filesystem; `fail(call, args)` returns an errno to throw instead. */
  function failingFs(fail: (call: string, args: unknown[]) => string | undefined): FsLayer {
    const layer = {} as Record<string, unknown>;
    for (const [name, call] of Object.entries(nodeFsLayer)) {
      layer[name] = async (...args: unknown[]) => {
        const code = fail(name, args);
        if (code !== undefined) throw Object.assign(new Error(`${code}: ${name}`), { code });
        return (call as (...a: unknown[]) => Promise<unknown>)(...args);
      };
    }
    return layer as unknown as FsLayer;
  }

  it('saves and leaves no pending intent where the file system refuses folder fsync (EINVAL)', async () => {
    const root = await space({ 'a.md': 'a\n' });
    const fs = failingFs((call) => (call === 'syncDir' ? 'EINVAL' : undefined));
    const store = await ContentStore.open({ root, fs });
    const a = await store.read('a.md');
    const receipts = await store.save([
      { target: 'a.md', content: bytes('A\n'), expectedVersion: a.version },
      { target: 'n/b.md', content: bytes('b\n'), expectedVersion: null },
    ]);
    expect(receipts.map((receipt) => receipt.version)).toEqual([sha('A\n'), sha('b\n')]);
    expect(await readTextTree(root)).toEqual({ 'a.md': 'A\n', 'n/b.md': 'b\n' });
    expect(await readdir(join(root, '.repa/intents'))).toEqual([]);
  });

  /**
   * Saves `A` over `a.md` and a new `b.md` while `fault` fails file-system calls from the folders'
   * fsync until step `until`; then deletes `b.md`, reopens the store and checks that nothing brings
   * `b.md` back.
   */
  async function saveFaultedThenDelete(
    fault: (call: string, args: unknown[]) => string | undefined,
    until: SaveStep,
  ) {
    const root = await space({ 'a.md': 'a\n' });
    let armed = false;
    const hooks = {
      step: (step: SaveStep) => {
        if (step === 'dirs-synced') armed = true;
        if (step === until) armed = false;
      },
    };
    const fs = failingFs((call, args) => (armed ? fault(call, args) : undefined));
    const store = await ContentStore.open({ root, fs, hooks });
    const a = await store.read('a.md');
    const receipts = await store.save([
      { target: 'a.md', content: bytes('A\n'), expectedVersion: a.version },
      { target: 'b.md', content: bytes('b\n'), expectedVersion: null },
    ]);
    expect(receipts.map((receipt) => receipt.target)).toEqual(['a.md', 'b.md']);
    await rm(join(root, 'b.md'));
    const reopened = await ContentStore.open({ root });
    expect(await readTextTree(root)).toEqual({ 'a.md': 'A\n' });
    expect(await reopened.listRecoverable()).toEqual([]);
    return { root, a, reopened };
  }

  it('never brings back a file deleted after a save whose index write failed (EIO) was reported saved', async () => {
    const { root, a, reopened } = await saveFaultedThenDelete(
      (call, args) =>
        call === 'rename' && String(args[1]).endsWith('identities.json') ? 'EIO' : undefined,
      'index-written',
    );
    expect(
      Object.keys(await readTree(root, { withRepa: true })).filter((path) =>
        path.includes('intents/'),
      ),
    ).toEqual([]);
    // The identity of the saved file that is still there was kept.
    expect((await reopened.read('a.md')).identity).toBe(a.identity);
  });

  it('never brings back a deleted file when neither the index nor the committed record could be written', async () => {
    // A full disk after the renames: no file of Repa's can be replaced any more, an unlink still works.
    await saveFaultedThenDelete(
      (call, args) =>
        call === 'rename' && String(args[1]).includes('.repa') ? 'ENOSPC' : undefined,
      'done',
    );
  });

  it('refuses to commit with busy, changing nothing, when another process took the save lock over', async () => {
    const root = await space({ 'a.md': 'a\n' });
    const lockFolder = join(root, '.repa', 'content.lock');
    const hooks = {
      step: async (step: SaveStep) => {
        // As if this process had stalled and another one took the stale lock over.
        if (step === 'checked') {
          await mkdir(`${lockFolder}.other`);
          await rm(lockFolder, { recursive: true });
          await rename(`${lockFolder}.other`, lockFolder);
        }
      },
    };
    const store = await ContentStore.open({ root, hooks });
    const a = await store.read('a.md');
    const save = store.save([
      { target: 'a.md', content: bytes('A\n'), expectedVersion: a.version },
    ]);
    expect((await repaErrorOf(save)).code).toBe('busy');
    expect(await readTextTree(root)).toEqual({ 'a.md': 'a\n' });
    // The other holder's lock is left to it.
    expect((await readdir(join(root, '.repa'))).includes('content.lock')).toBe(true);
  });
});
