import { describe, expect, it } from 'vitest';
import { compileGlob } from './search-patterns.js';

describe('compileGlob', () => {
  it.each([
    ['*.md', ['README.md', 'notes/tides.md', '.x/a.md', '.md'], ['a.txt', 'notes.md/x']],
    ['**/*.md', ['a.md', 'notes/deep/a.md', '.hidden/a.md'], ['a.mdx']],
    ['notes/*.md', ['notes/a.md', 'x/notes/a.md'], ['notes/sub/a.md', 'notesa.md']],
    ['notes/**', ['notes', 'notes/a', 'notes/sub/b.md'], ['notesx/a']],
    ['notes/**/*.txt', ['notes/a.txt', 'notes/x/y/a.txt'], ['notes/a.md']],
    ['*.{md,txt}', ['a.md', 'b.txt'], ['a.pdf', 'a.{md,txt}']],
    ['{a,{b,c}d}', ['a', 'bd', 'cd'], ['b', '{b,c}d']],
    ['{a}', ['{a}'], ['a']],
    ['[ab]x', ['ax', 'bx'], ['cx', '[ab]x']],
    ['[!ab]x', ['cx', '!x'], ['ax', '/x']],
    ['[a-c][[:digit:]]', ['b7'], ['d7', 'bb']],
    ['a?c', ['abc'], ['ac', 'a/c']],
    ['a\\*b', ['a*b'], ['axb']],
    ['.*', ['.gitignore', 'x/.env'], ['env']],
    ['foo**bar', ['fooxbar'], ['foo/bar']],
    ['a.(b|c)+', ['a.(b|c)+'], ['a.b', 'a.bb']],
    ['!*.md', ['a.txt'], ['a.md']],
  ])('%s', (glob, matching, other) => {
    const matches = compileGlob(glob, 'pattern');
    for (const path of matching) expect([path, matches(path)]).toEqual([path, true]);
    for (const path of other) expect([path, matches(path)]).toEqual([path, false]);
  });
});
