import { execFileSync } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { openTools, textOf } from '../test/content-tools.js';
import { tempSpaces } from '../test/temp-space.js';

const space = tempSpaces();

describe('the search worker', () => {
  it('answers a tricky tree with every rule and reason kept', async () => {
    const outside = await space({ 'secret.md': 'tidal bore outside\n' });
    const root = await space({
      '.gitignore': 'build/\n*.log\n',
      'build/out.md': 'tidal bore in build\n',
      'notes/run.log': 'tidal bore in a log\n',
      // Line ends \r\n, and undecodable bytes before the hit: the literal prefilter keeps both.
      'notes/crlf.md': 'one\r\ntwo\r\nthe tidal  bore\r\n',
      'notes/bytes.md': Buffer.concat([
        Buffer.from([0xff, 0xfe, 0x41, 0x0a]),
        Buffer.from('tidal bore\n'),
      ]),
      'notes/upper.md': 'TIDAL BORE\n',
      'notes/big.md': `${'x'.repeat(200)}\ntidal bore\n`,
      'notes/binary.md': Buffer.from('tidal bore\0\n'),
      '.repa/hidden.md': 'tidal bore in .repa\n',
    });
    await symlink(outside, join(root, 'out'));
    // A link inside the space is followed, and each real folder walked once.
    await mkdir(join(root, 'zz'));
    await symlink(join(root, 'notes'), join(root, 'zz/notes-link'));
    await symlink(join(root, 'notes/crlf.md'), join(root, 'zz/crlf-link.md'));
    execFileSync('mkfifo', [join(root, 'notes/pipe.md')]);
    const { call } = await openTools(root, {}, { searchLimits: { maxFileBytes: 100 } });

    const grep = await call('grep', { pattern: 'tidal\\s+bore' });
    expect(grep.details.hits).toEqual([
      { path: 'notes/bytes.md', line: 2 },
      { path: 'notes/crlf.md', line: 3 },
      { path: 'zz/crlf-link.md', line: 3 },
    ]);
    expect(grep.details).toMatchObject({
      ignored: 2,
      symlinksLeaving: 1,
      special: 1,
      skippedFiles: [{ path: 'notes/big.md', reason: 'too large' }],
    });
    expect(textOf(grep)).toContain('notes/crlf.md:3: the tidal  bore');
    const folded = await call('grep', {
      pattern: 'tidal\\s+bore',
      ignoreCase: true,
      path: 'notes',
    });
    expect(folded.details.hits).toContainEqual({ path: 'notes/upper.md', line: 1 });

    const find = await call('find', { pattern: '*.md' });
    expect((find.details.files as { path: string }[]).map((file) => file.path)).not.toContain(
      'build/out.md',
    );
    expect(find.details).toMatchObject({ ignored: 2, symlinksLeaving: 1, special: 1 });
    const bad = await repaErrorOf(call('grep', { pattern: 'tidal(' }));
    expect(bad.code).toBe('invalid_request');
  });

  it('stops a call cancelled while it runs, and answers the next one', async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 50; index++) files[`f${index}.md`] = 'needle\n';
    const root = await space(files);
    const { call } = await openTools(root);
    const controller = new AbortController();
    const running = call('grep', { pattern: 'needle' }, controller.signal);
    controller.abort();
    expect((await repaErrorOf(running)).code).toBe('cancelled');
    const [one, two] = await Promise.all([
      call('grep', { pattern: 'needle', limit: 5 }),
      call('find', { pattern: 'f1*.md' }),
    ]);
    expect(one.details.hits).toHaveLength(5);
    expect(two.details.files).toHaveLength(11);
  });
});
