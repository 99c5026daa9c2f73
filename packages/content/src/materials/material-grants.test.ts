import { readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makePdf } from '@repa/fixtures';
import { repaErrorOf } from '@repa/protocol/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ContentStore } from '../store/index.js';
import { removeAll, tempSpace } from '../test/temp-space.js';
import { addMaterial, listMaterials, removeMaterial } from './index.js';

const dirs: string[] = [];
const folder = async (files: Record<string, string | Uint8Array> = {}) => {
  const root = await realpath(await tempSpace(files));
  dirs.push(root);
  return root;
};
afterEach(() => removeAll(dirs));

const chapter = makePdf([{ lines: ['Chapter 3', 'Enzymes lower activation energy.'] }]);

describe('materials granted in the grants file', () => {
  it('adds a material to one space, which alone reads it', async () => {
    const [books, app, biology, history] = await Promise.all([
      folder({ 'Chapter 3 (draft).pdf': chapter }),
      folder(),
      folder(),
      folder(),
    ]);
    const { material, revision } = await addMaterial(app, {
      path: join(books, 'Chapter 3 (draft).pdf'),
      title: 'Enzymes',
      spaces: [biology],
    });
    expect(material).toEqual({
      id: 'chapter-3-draft',
      identity: 'repa:material/chapter-3-draft',
      path: join(books, 'Chapter 3 (draft).pdf'),
      title: 'Enzymes',
      type: 'pdf',
      bytes: chapter.length,
      spaces: [biology],
      state: 'ok',
    });
    expect(await listMaterials(app, { space: biology })).toEqual({
      revision,
      materials: [material],
    });
    expect((await listMaterials(app, { space: history })).materials).toEqual([]);
    const inBiology = await ContentStore.open({ root: biology, appDirectory: app });
    expect((await inBiology.read('repa:material/chapter-3-draft')).bytes).toEqual(chapter);
    const inHistory = await ContentStore.open({ root: history, appDirectory: app });
    const refused = await repaErrorOf(inHistory.read('repa:material/chapter-3-draft'));
    expect(refused.code).toBe('material_not_granted');
  });

  it('lists for a space named through a link what was granted to its real path', async () => {
    const [books, app, biology, links] = await Promise.all([
      folder({ 'a.pdf': chapter }),
      folder(),
      folder(),
      folder(),
    ]);
    const { material } = await addMaterial(app, { path: join(books, 'a.pdf'), spaces: [biology] });
    await symlink(biology, join(links, 'biology'));
    expect(await listMaterials(app, { space: join(links, 'biology') })).toMatchObject({
      materials: [material],
    });
  });

  it('grants to every space, joins the spaces of a second add, and refuses an id taken by another file', async () => {
    const [books, app, one, two] = await Promise.all([
      folder({ 'a.pdf': chapter, 'b.md': '# B\n' }),
      folder(),
      folder(),
      folder(),
    ]);
    await addMaterial(app, { path: join(books, 'a.pdf'), id: 'ch3', spaces: [one] });
    const { material } = await addMaterial(app, {
      path: join(books, 'a.pdf'),
      id: 'ch3',
      spaces: [two],
    });
    expect(material.spaces).toEqual([one, two].sort());
    const everywhere = await addMaterial(app, { path: join(books, 'b.md'), spaces: null });
    expect(everywhere.material).toMatchObject({ id: 'b', type: 'text', spaces: null });
    const taken = await repaErrorOf(
      addMaterial(app, { path: join(books, 'b.md'), id: 'ch3', spaces: null }),
    );
    expect(taken).toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('another file'),
    });
  });

  it('checks the revision, and never resets a damaged grants file', async () => {
    const [books, app] = await Promise.all([folder({ 'a.pdf': chapter }), folder()]);
    const first = await addMaterial(app, { path: join(books, 'a.pdf'), spaces: null });
    const stale = await repaErrorOf(removeMaterial(app, 'a', 'not-the-revision'));
    expect(stale.code).toBe('stale_version');
    expect(await removeMaterial(app, 'a', first.revision)).toMatchObject({ removed: true });
    expect(await removeMaterial(app, 'a')).toMatchObject({ removed: false });
    const file = join(app, 'repa-content-access.json');
    await writeFile(file, '{ "format": "repa.content-access/1", "materials": ');
    const damaged = await repaErrorOf(
      addMaterial(app, { path: join(books, 'a.pdf'), spaces: null }),
    );
    expect(damaged.code).toBe('data_corrupt');
    expect(await readFile(file, 'utf8')).toBe('{ "format": "repa.content-access/1", "materials": ');
  });

  it('refuses a file Repa cannot read as text', async () => {
    const [books, app] = await Promise.all([
      folder({ 'song.mp3': Buffer.from('ID3\x04\0\0\0\0', 'latin1') }),
      folder(),
    ]);
    const error = await repaErrorOf(
      addMaterial(app, { path: join(books, 'song.mp3'), spaces: null }),
    );
    expect(error).toMatchObject({
      code: 'unsupported_content',
      message: expect.stringContaining('MP3'),
    });
  });

  it('lists a material whose file vanished or changed type as such', async () => {
    const [books, app, space] = await Promise.all([
      folder({ 'a.pdf': chapter, 'b.pdf': chapter }),
      folder(),
      folder(),
    ]);
    await addMaterial(app, { path: join(books, 'a.pdf'), spaces: null });
    await addMaterial(app, { path: join(books, 'b.pdf'), spaces: null });
    await rm(join(books, 'a.pdf'));
    await writeFile(join(books, 'b.pdf'), 'now plain text');
    const { materials } = await listMaterials(app);
    expect(materials.map(({ id, state, currentType }) => ({ id, state, currentType }))).toEqual([
      { id: 'a', state: 'vanished', currentType: undefined },
      { id: 'b', state: 'changed', currentType: 'text' },
    ]);
    const store = await ContentStore.open({ root: space, appDirectory: app });
    const gone = await repaErrorOf(store.read('repa:material/a'));
    expect(gone).toMatchObject({ code: 'not_found', message: expect.stringContaining('is gone') });
  });
});
