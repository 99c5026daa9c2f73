import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runNode, writeStoreChild } from '../test/child-node.js';
import { removeAll, tempSpace } from '../test/temp-space.js';

const dirs: string[] = [];
afterEach(() => removeAll(dirs));

// Each child reads f<i>.md, waits until the other child has read it too (a file barrier, no
// timing), then saves its own text against the version it read; it prints one outcome per round.
const CHILD = (distUrl: string) => `
import { access, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ContentStore } from ${JSON.stringify(distUrl)};
const [root, me, other, rounds, sync] = process.argv.slice(2);
const store = await ContentStore.open({ root });
const waitFor = async (path) => {
  for (;;) {
    try { await access(path); return; } catch { await new Promise((resolve) => setTimeout(resolve, 2)); }
  }
};
const outcomes = [];
for (let round = 0; round < Number(rounds); round++) {
  const target = 'f' + round + '.md';
  const seen = await store.read(target);
  await writeFile(join(sync, me + '-' + round), '');
  await waitFor(join(sync, other + '-' + round));
  try {
    await store.save([{ target, content: Buffer.from(me + ' ' + round + '\\n'), expectedVersion: seen.version }]);
    outcomes.push('saved');
  } catch (error) {
    outcomes.push(error.code ?? String(error));
  }
}
process.stdout.write(JSON.stringify(outcomes));
`;

const ROUNDS = 40;

describe('ContentStore across processes', () => {
  it('lets exactly one of two processes saving one file from one version win, 40 times (child processes running dist/)', async () => {
    const files = Object.fromEntries(
      Array.from({ length: ROUNDS }, (_, round) => [`f${round}.md`, `base ${round}\n`]),
    );
    const root = await tempSpace(files);
    const work = await tempSpace();
    dirs.push(root, work);
    const script = join(work, 'child.mjs');
    const node = await writeStoreChild(script, CHILD);
    const [one, two] = await Promise.all([
      runNode(node, script, [root, 'one', 'two', String(ROUNDS), work]),
      runNode(node, script, [root, 'two', 'one', String(ROUNDS), work]),
    ]);
    expect(one.code, one.stderr).toBe(0);
    expect(two.code, two.stderr).toBe(0);
    const outcomesOne = JSON.parse(one.stdout) as string[];
    const outcomesTwo = JSON.parse(two.stdout) as string[];
    for (let round = 0; round < ROUNDS; round++) {
      const pair = [outcomesOne[round], outcomesTwo[round]];
      expect([...pair].sort(), `round ${round}`).toEqual(['saved', 'stale_version']);
      const winner = pair[0] === 'saved' ? 'one' : 'two';
      expect(await readFile(join(root, `f${round}.md`), 'utf8'), `round ${round}`).toBe(
        `${winner} ${round}\n`,
      );
    }
  }, 120_000);
});
