import { link, readdir, readFile, rm, stat, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repaErrorOf } from '@repa/protocol/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { runNode, writeStoreChild } from '../test/child-node.js';
import { removeAll, tempSpace } from '../test/temp-space.js';
import { ContentStore } from './content-store.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const dirs: string[] = [];
afterEach(() => removeAll(dirs));

async function space(files: Record<string, string>): Promise<string> {
  const root = await tempSpace(files);
  dirs.push(root);
  return root;
}

/** The slot's header line, trimmed. */
async function slotHeader(root: string): Promise<string> {
  return (await readFile(join(root, '.repa/intent-slot'))).subarray(0, 256).toString().trim();
}

// A child that reads `a.md`, starts a one-change save and is killed with SIGKILL right after its
// record is in the slot (a dead writer, its lock left behind).
const CHILD = (distUrl: string) => `
import { ContentStore } from ${JSON.stringify(distUrl)};
const [root] = process.argv.slice(2);
const store = await ContentStore.open({
  root,
  hooks: { step(step) { if (step === 'intent-written') process.kill(process.pid, 'SIGKILL'); } },
});
const a = await store.read('a.md');
await store.save([{ target: 'a.md', content: Buffer.from('lost a\\n'), expectedVersion: a.version }], {
  operationId: 'op-dead',
});
`;

describe('ContentStore intent slot (one-change saves)', () => {
  it('keeps the record in .repa/intent-slot during the save, none in .repa/intents/, and empties it after', async () => {
    const root = await space({ 'a.md': 'a\n' });
    const seen: { header: string; records: string[] }[] = [];
    const store = await ContentStore.open({
      root,
      hooks: {
        step: async (step) => {
          if (step !== 'temp-written') return;
          seen.push({
            header: await slotHeader(root),
            records: await readdir(join(root, '.repa/intents')),
          });
        },
      },
    });
    const a = await store.read('a.md');
    await store.save([{ target: 'a.md', content: bytes('A\n'), expectedVersion: a.version }], {
      operationId: 'op-slot',
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.header).toMatch(/^repa\.intent-slot\/1 \d+ [0-9a-f]{8} op-slot 2$/u);
    expect(seen[0]?.records).toEqual([]);
    expect(await slotHeader(root)).toBe('repa.intent-slot/1 0');
    expect(await readFile(join(root, 'a.md'), 'utf8')).toBe('A\n');
  });

  it('moves a killed writer’s record out of the slot before another process’s store writes it', async () => {
    const root = await space({ 'a.md': 'old a\n', 'b.md': 'old b\n' });
    // This store opened (and recovered) before the other process ran and died.
    const store = await ContentStore.open({ root, hooks: {} });
    const b = await store.read('b.md');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const script = join(root, '..', `${root.split('/').at(-1)}-child.mjs`);
    dirs.push(script);
    const child = await runNode(await writeStoreChild(script, CHILD), script, [root]);
    expect(child.signal, child.stderr).toBe('SIGKILL');
    expect(await slotHeader(root)).toContain(' op-dead ');

    // Waits for the dead writer's lock to go stale, then saves over the slot.
    await store.save([{ target: 'b.md', content: bytes('new b\n'), expectedVersion: b.version }]);
    expect(await readFile(join(root, 'b.md'), 'utf8')).toBe('new b\n');
    const kept = JSON.parse(await readFile(join(root, '.repa/intents/op-dead.json'), 'utf8'));
    expect(kept).toMatchObject({ operationId: 'op-dead', status: 'pending' });
    expect(Buffer.from(kept.changes[0].content, 'base64').toString()).toBe('lost a\n');

    // The next process to open the space resolves it: the save never reached a.md.
    const next = await ContentStore.open({ root, hooks: {} });
    expect(next.recovered.map(({ operationId, outcome }) => ({ operationId, outcome }))).toEqual([
      { operationId: 'op-dead', outcome: 'recoverable' },
    ]);
    expect(await readFile(join(root, 'a.md'), 'utf8')).toBe('old a\n');
    expect((await readdir(root)).filter((name) => name.includes('repa-tmp'))).toEqual([]);
  }, 30_000);

  it('quarantines a torn slot record under its operation id and empties the slot', async () => {
    const root = await space({ 'a.md': 'a\n' });
    const header = Buffer.alloc(256, 0x20);
    header.write('repa.intent-slot/1 40 00000000 op-torn 5');
    header[255] = 0x0a;
    await ContentStore.open({ root, hooks: {} }).then((store) => store.read('a.md'));
    await writeFile(
      join(root, '.repa/intent-slot'),
      Buffer.concat([header, bytes('{"format":"repa.content-intent/1","oper')]),
    );
    const store = await ContentStore.open({ root, hooks: {} });
    expect(store.recovered.map(({ operationId, outcome }) => ({ operationId, outcome }))).toEqual([
      { operationId: 'op-torn', outcome: 'quarantined' },
    ]);
    expect((await store.listRecoverable()).map((entry) => entry.status)).toEqual(['quarantined']);
    expect(await slotHeader(root)).toBe('repa.intent-slot/1 0');
    expect(await readFile(join(root, 'a.md'), 'utf8')).toBe('a\n');
  });

  it('quarantines a slot whose body fails its checksum or whose length the file cannot hold', async () => {
    const cases = {
      'wrong checksum': (body: Buffer) =>
        `repa.intent-slot/1 ${body.length} 00000000 op-crc ${body.length}`,
      'impossible length': () => 'repa.intent-slot/1 999999999999999 00000000 op-len 5',
    };
    for (const [label, line] of Object.entries(cases)) {
      const root = await space({ 'a.md': 'a\n' });
      await ContentStore.open({ root, hooks: {} }).then((store) => store.read('a.md'));
      const body = bytes('x'.repeat(300));
      const header = Buffer.alloc(256, 0x20);
      header.write(line(body));
      header[255] = 0x0a;
      await writeFile(join(root, '.repa/intent-slot'), Buffer.concat([header, body]));
      const store = await ContentStore.open({ root, hooks: {} });
      expect(
        store.recovered.map(({ outcome }) => outcome),
        label,
      ).toEqual(['quarantined']);
      expect(await slotHeader(root), label).toBe('repa.intent-slot/1 0');
      const a = await store.read('a.md');
      await store.save([{ target: 'a.md', content: bytes('A\n'), expectedVersion: a.version }]);
      expect(await readFile(join(root, 'a.md'), 'utf8'), label).toBe('A\n');
    }
  });

  it('quarantines a slot whose length is past any save without allocating it (a sparse file)', async () => {
    const root = await space({ 'a.md': 'a\n' });
    await ContentStore.open({ root, hooks: {} }).then((store) => store.read('a.md'));
    const header = Buffer.alloc(256, 0x20);
    header.write(`repa.intent-slot/1 ${2 ** 40} 00000000 op-huge 5`);
    header[255] = 0x0a;
    await writeFile(join(root, '.repa/intent-slot'), header);
    await truncate(join(root, '.repa/intent-slot'), 256 + 2 ** 40);
    const store = await ContentStore.open({ root, hooks: {} });
    expect(store.recovered.map(({ operationId, outcome }) => ({ operationId, outcome }))).toEqual([
      { operationId: 'op-huge', outcome: 'quarantined' },
    ]);
    expect(await slotHeader(root)).toBe('repa.intent-slot/1 0');
  });

  it('never writes or clears the slot after losing the lock to another store mid-save', async () => {
    const root = await space({ 'a.md': 'a\n', 'b.md': 'b\n' });
    let pauseB: () => void = () => undefined;
    const bPaused = new Promise<void>((resolve) => {
      pauseB = resolve;
    });
    let resumeB: () => void = () => undefined;
    const bResumed = new Promise<void>((resolve) => {
      resumeB = resolve;
    });
    const b = await ContentStore.open({
      root,
      hooks: {
        step: async (step) => {
          if (step !== 'temp-written') return;
          pauseB();
          await bResumed;
        },
      },
    });
    const bRead = await b.read('b.md');
    let bSave: Promise<unknown> = Promise.resolve();
    const a = await ContentStore.open({
      root,
      hooks: {
        step: async (step) => {
          if (step !== 'planned') return;
          // A stalls; its lock goes stale and B takes it over, and is mid-save when A goes on.
          await rm(join(root, '.repa/content.lock'), { recursive: true });
          bSave = b.save(
            [{ target: 'b.md', content: bytes('B\n'), expectedVersion: bRead.version }],
            {
              operationId: 'op-b',
            },
          );
          await bPaused;
        },
      },
    });
    const aRead = await a.read('a.md');
    const error = await repaErrorOf(
      a.save([{ target: 'a.md', content: bytes('A\n'), expectedVersion: aRead.version }], {
        operationId: 'op-a',
      }),
    );
    expect(error.code).toBe('busy');
    // B's record is still in the slot, untouched by A.
    expect(await slotHeader(root)).toContain(' op-b ');
    expect(await readFile(join(root, 'a.md'), 'utf8')).toBe('a\n');
    resumeB();
    await bSave;
    expect(await readFile(join(root, 'b.md'), 'utf8')).toBe('B\n');
    expect(await slotHeader(root)).toBe('repa.intent-slot/1 0');
  });

  it('refuses with space_unsafe, writing nothing, when the slot is a symlink or has another link', async () => {
    for (const kind of ['symlink', 'hard link'] as const) {
      const root = await space({ 'a.md': 'a\n' });
      const outside = await space({ 'victim.txt': 'victim' });
      const store = await ContentStore.open({ root, hooks: {} });
      const a = await store.read('a.md');
      const victim = join(outside, 'victim.txt');
      if (kind === 'symlink') await symlink(victim, join(root, '.repa/intent-slot'));
      else await link(victim, join(root, '.repa/intent-slot'));
      const error = await repaErrorOf(
        store.save([{ target: 'a.md', content: bytes('A\n'), expectedVersion: a.version }]),
      );
      expect(error.code, kind).toBe('space_unsafe');
      expect(await readFile(victim, 'utf8'), kind).toBe('victim');
      expect(await readFile(join(root, 'a.md'), 'utf8'), kind).toBe('a\n');
      expect(
        (await readdir(root)).filter((name) => name.includes('repa-tmp')),
        kind,
      ).toEqual([]);
    }
  });

  it('cuts the slot back to its header once a record larger than 1 MiB is done', async () => {
    const root = await space({ 'a.md': 'a\n' });
    const store = await ContentStore.open({ root, hooks: {} });
    const a = await store.read('a.md');
    const large = Buffer.alloc(2 * 1024 * 1024, 0x61);
    await store.save([{ target: 'a.md', content: large, expectedVersion: a.version }]);
    expect((await stat(join(root, 'a.md'))).size).toBe(large.length);
    expect((await stat(join(root, '.repa/intent-slot'))).size).toBe(256);
  });
});
