import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RepaError } from '@repa/protocol';
import { describe, expect, it } from 'vitest';
import {
  checkLearningContextSources,
  readLearningContextSources,
  SOURCE_TEXT_LIMIT,
} from './learning-context-sources.js';

function space(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'repa-sources-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  return root;
}

async function code(promise: Promise<unknown>): Promise<string | undefined> {
  return promise.then(
    () => undefined,
    (error: unknown) => (RepaError.isInstance(error) ? error.code : String(error)),
  );
}

describe('learning-context sources', () => {
  it('hashes each source and normalizes its path; a missing one or a FIFO has no hash', async () => {
    const root = space({ 'a.md': 'A' });
    execFileSync('mkfifo', [join(root, 'pipe.md')]);
    const read = await readLearningContextSources(root, [
      './a.md',
      'gone.md',
      'pipe.md',
      'repa:note/1',
    ]);
    expect(
      read.map((source) => [source.version.path, source.version.sha256, source.exists]),
    ).toEqual([
      ['a.md', '559aead08264d5795d3909718cdd05abd49572e84fe55590eef31a88a08fdffd', true],
      ['gone.md', null, false],
      ['pipe.md', null, false],
      ['repa:note/1', null, true],
    ]);
  });

  it('hashes a source larger than the text it keeps over all its bytes, and says it was truncated', async () => {
    const bytes = Buffer.alloc(SOURCE_TEXT_LIMIT + 10, 'a');
    const root = space({});
    writeFileSync(join(root, 'big.txt'), bytes);
    const [big] = await readLearningContextSources(root, ['big.txt']);
    expect(big?.version.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(big?.version.size).toBe(SOURCE_TEXT_LIMIT + 10);
    expect(big?.text.length).toBe(SOURCE_TEXT_LIMIT);
    expect(big?.truncated).toBe(true);
  });

  it('refuses paths outside the space, through a symlink out, and inside .repa', async () => {
    const outside = space({ 'secret.md': 'S' });
    const root = space({});
    symlinkSync(outside, join(root, 'link'));
    expect(await code(readLearningContextSources(root, ['../x.md']))).toBe('path_outside_space');
    expect(await code(readLearningContextSources(root, [join(outside, 'secret.md')]))).toBe(
      'path_outside_space',
    );
    expect(await code(readLearningContextSources(root, ['link/secret.md']))).toBe(
      'path_outside_space',
    );
    expect(await code(readLearningContextSources(root, ['.repa/learning-context.json']))).toBe(
      'protected_path',
    );
    expect(await code(readLearningContextSources(root, ['.REPA./learning-context.json']))).toBe(
      'protected_path',
    );
  });

  it('reports changed and vanished sources, and trusts an unchanged size and mtime without re-reading', async () => {
    const root = space({ 'a.md': 'one', 'b.md': 'two', 'c.md': 'three' });
    const fixed = new Date(1_700_000_000_000);
    utimesSync(join(root, 'b.md'), fixed, fixed);
    const read = await readLearningContextSources(root, ['a.md', 'b.md', 'c.md']);
    const versions = read.map((source) => source.version);
    expect(
      (await checkLearningContextSources(root, ['a.md', 'b.md', 'c.md', 'd.md'], versions)).map(
        (source) => source.state,
      ),
    ).toEqual(['unchanged', 'unchanged', 'unchanged', 'unversioned']);
    writeFileSync(join(root, 'a.md'), 'one, longer');
    // Same size, mtime put back: the stat matches, so the content is not read again (as the
    // content observer does); this is what "stat first" costs.
    writeFileSync(join(root, 'b.md'), 'TWO');
    utimesSync(join(root, 'b.md'), fixed, fixed);
    writeFileSync(join(root, 'c.md'), 'three');
    utimesSync(join(root, 'c.md'), new Date(0), new Date(0));
    const states = await checkLearningContextSources(root, ['a.md', 'b.md', 'c.md'], versions);
    expect(states.map((source) => source.state)).toEqual(['changed', 'unchanged', 'unchanged']);
    writeFileSync(join(root, 'a.md'), 'one');
    expect((await checkLearningContextSources(root, ['a.md'], versions))[0]?.state).toBe(
      'unchanged',
    );
    rmSync(join(root, 'a.md'));
    expect((await checkLearningContextSources(root, ['a.md'], versions))[0]?.state).toBe(
      'vanished',
    );
  });
});
