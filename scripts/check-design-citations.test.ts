import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without type declarations
import { checkDesignCitations, designRequirements } from './check-design-citations.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function workspace(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'repa-citations-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const design = '# Design\n\n- **R1.** One.\n- **R12.** Twelve.\n';

// The repository itself is checked by `npm run check` (`node scripts/check-design-citations.mjs`),
// which `npm test` runs before the tests; these tests show each rule failing on a workspace made
// for it, and pin the design's numbering.
describe('checkDesignCitations', () => {
  it('numbers every requirement block of the design, R1–R3 through R100–R114', () => {
    const numbers = [...(designRequirements(repoRoot) as Set<number>)].sort((a, b) => a - b);
    const ranges: [number, number][] = [
      [1, 3],
      [10, 17],
      [20, 27],
      [30, 37],
      [40, 48],
      [50, 54],
      [60, 69],
      [70, 75],
      [80, 86],
      [90, 94],
      [100, 114],
      [120, 124],
    ];
    const expected = ranges.flatMap(([from, to]) =>
      Array.from({ length: to - from + 1 }, (_, index) => from + index),
    );
    expect(numbers).toEqual(expected);
  });

  it('flags a comment or a test name citing a requirement the design does not number', () => {
    const root = workspace({
      'docs/design.md': design,
      'packages/a/src/x.ts': "// spec R12 and R1\n/* see R13 */\nit('does it (R7)', () => {});\n",
    });
    expect(checkDesignCitations(root)).toEqual([
      'packages/a/src/x.ts:2: cites R13, not in docs/design.md',
      'packages/a/src/x.ts:3: cites R7, not in docs/design.md',
    ]);
  });

  it('ignores R-numbers in code that is neither a comment nor a string', () => {
    const root = workspace({
      'docs/design.md': design,
      'apps/b/src/y.ts': 'const R5 = 1;\nexport { R5 };\n',
    });
    expect(checkDesignCitations(root)).toEqual([]);
  });

  it('flags §10 and ../shared anywhere in a source, except in conformance tests', () => {
    const root = workspace({
      'docs/design.md': design,
      'apps/b/src/y.ts': "// as in §10\nconst data = '../shared/conformance';\n",
      'packages/c/src/z.conformance.test.ts': "const data = '../shared/conformance';\n",
    });
    expect(checkDesignCitations(root)).toEqual([
      'apps/b/src/y.ts:1: cites §10 (cite docs/design.md instead)',
      'apps/b/src/y.ts:2: cites ../shared, which is not in the repository',
    ]);
  });

  it('flags issue and pull-request numbers in comments and test names under every source folder', () => {
    const root = workspace({
      'docs/design.md': design,
      'packages/a/src/x.ts':
        "// fixed in issue 16\n/* see\n * #22 */\nit('works (Issue #3)', () => {});\n",
      'apps/b/src/y.ts': "// PR 7 and pull request 8\nconst text = 'queued #1';\n",
      'bench/cases/z.mjs': "/** As in issues 4–5. */\nconst entity = '&#39;';\n",
      'scripts/s.mjs': '// (#12)\n',
      'fixtures/src/f.ts': '// `#10`, not a citation, and #9 is\n',
    });
    expect(checkDesignCitations(root).sort()).toEqual(
      [
        'packages/a/src/x.ts:1: cites issue 16 (say in words what it means)',
        'packages/a/src/x.ts:3: cites #22 (say in words what it means)',
        'packages/a/src/x.ts:4: cites Issue #3 (say in words what it means)',
        'apps/b/src/y.ts:1: cites PR 7 (say in words what it means)',
        'apps/b/src/y.ts:1: cites pull request 8 (say in words what it means)',
        'bench/cases/z.mjs:1: cites issues 4 (say in words what it means)',
        'scripts/s.mjs:1: cites #12 (say in words what it means)',
        'fixtures/src/f.ts:1: cites #9 (say in words what it means)',
      ].sort(),
    );
  });

  it('flags issue numbers in READMEs and the markdown of docs/ and bench/, not in changelogs or fixture data', () => {
    const root = workspace({
      'docs/design.md': `${design}Ahead: an index for large spaces (#22).\n`,
      'README.md': 'Start here.\n',
      'bench/FINDINGS.md': 'Measured for issue 16.\n',
      'packages/a/README.md': '# A\n\nSee issue #5.\n',
      'packages/a/CHANGELOG.md': '- Fixed (issue 19).\n',
      'fixtures/patches/p/input/notes.md': 'Homework issue 3 (#4).\n',
    });
    expect(checkDesignCitations(root).sort()).toEqual(
      [
        'docs/design.md:5: cites (#22) (say in words what it means)',
        'bench/FINDINGS.md:1: cites issue 16 (say in words what it means)',
        'packages/a/README.md:3: cites issue #5 (say in words what it means)',
      ].sort(),
    );
  });
});
