import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without type declarations
import { checkApiDocs, checkApiReports, reportNames, writeApiReports } from './api-report.mjs';
import { workspace } from './test/layers-workspace.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const entry = (file: string) => ({ types: `./dist/${file}.d.ts`, import: `./dist/${file}.js` });

/** A workspace with one built package `@repa/a`: a root entry, a `./testing` one and a JSON file. */
function builtPackage() {
  return workspace({
    'packages/a/package.json': JSON.stringify({
      name: '@repa/a',
      exports: {
        './package.json': './package.json',
        '.': entry('index'),
        './testing': entry('testing/index'),
        './schema.json': './schema.json',
      },
    }),
    'packages/a/dist/index.d.ts':
      "export { open, type Options } from './open.js';\nexport { ready } from 'dep';\n",
    'packages/a/dist/open.d.ts':
      '/** Opens it. */\nexport declare function open(path: string, options?: Options): Promise<void>;\nexport interface Options {\n  /** How long. */\n  limit?: number;\n}\n',
    'packages/a/dist/testing/index.d.ts': 'export declare const fake: { open(): void };\n',
    'packages/a/node_modules/dep/package.json': JSON.stringify({
      name: 'dep',
      types: 'index.d.ts',
    }),
    'packages/a/node_modules/dep/index.d.ts': 'export declare const ready: true;\n',
  });
}

describe('api reports', () => {
  it("lists each entry's names with kind and declaration, comments and dependencies' types left out", () => {
    const root = builtPackage();
    expect(writeApiReports(root)).toEqual(['packages/a/api-report.md']);
    const report = readFileSync(join(root, 'packages/a/api-report.md'), 'utf8');
    expect([...reportNames(report)].map(([specifier, names]) => [specifier, [...names]])).toEqual([
      ['@repa/a', ['Options', 'open', 'ready']],
      ['@repa/a/testing', ['fake']],
      ['@repa/a/schema.json', []],
    ]);
    expect(report).toContain(
      '### `open` (function)\n\n```ts\nfunction open(path: string, options?: Options): Promise<void>;\n```',
    );
    expect(report).toContain('interface Options {\n    limit?: number;\n}');
    expect(report).toContain("### `ready` (re-export)\n\n```ts\nexport { ready } from 'dep';\n```");
    expect(report).toContain('No declarations: `./schema.json`.');
    expect(report).not.toContain('How long');
    expect(checkApiReports(root)).toEqual([]);
  });

  it("reads an inferred type's members in any order as the same, and a member added as a change", () => {
    const root = builtPackage();
    const testing = join(root, 'packages/a/dist/testing/index.d.ts');
    const declare = (members: string[]) =>
      writeFileSync(
        testing,
        `export declare const fake: {\n${members.map((m) => `    ${m};\n`).join('')}};\n`,
      );
    declare(['open(): void', 'close(): void']);
    writeApiReports(root);
    // A full build and an incremental one may print the same type's members in another order.
    declare(['close(): void', 'open(): void']);
    expect(checkApiReports(root)).toEqual([]);
    declare(['close(): void', 'open(): void', 'reset(): void']);
    expect(checkApiReports(root).join('\n')).toContain('@repa/a/testing: fake changed');
  });

  it('fails the check on an export added, removed or changed until the report is written again', () => {
    const root = builtPackage();
    writeApiReports(root);
    const index = join(root, 'packages/a/dist/index.d.ts');
    writeFileSync(index, `${readFileSync(index, 'utf8')}export declare function added(): void;\n`);
    expect(checkApiReports(root)).toEqual([
      'packages/a/api-report.md: differs from the built declarations (@repa/a: added added)',
    ]);
    writeApiReports(root);
    expect(checkApiReports(root)).toEqual([]);

    writeFileSync(join(root, 'packages/a/dist/testing/index.d.ts'), 'export {};\n');
    const open = join(root, 'packages/a/dist/open.d.ts');
    writeFileSync(open, readFileSync(open, 'utf8').replace('limit?: number', 'limit: number'));
    expect(checkApiReports(root)).toEqual([
      'packages/a/api-report.md: differs from the built declarations (@repa/a: Options changed; @repa/a/testing: fake removed)',
    ]);
  });

  it('fails when a report is missing or the declarations are not built', () => {
    const root = builtPackage();
    expect(checkApiReports(root)).toEqual(['packages/a/api-report.md: missing']);
    const bare = workspace({
      'packages/b/package.json': JSON.stringify({ name: '@repa/b', exports: { '.': entry('x') } }),
    });
    expect(checkApiReports(bare)).toEqual([
      'declarations not built: packages/b/dist/x.d.ts; run `npx tsc --build` first',
    ]);
  });
});

describe('api docs', () => {
  const readme = (body: string) =>
    `# @repa/a\n\nIntro.\n\n## API\n\n${body}\n## Files\n\n- \`x\`: y.\n`;

  it("passes when each package's README documents exactly what its report lists", () => {
    const root = builtPackage();
    writeApiReports(root);
    writeFileSync(
      join(root, 'packages/a/README.md'),
      readme(
        '### `@repa/a`\n\n- `open`, `Options`: opens a file.\n- `ready`: whether.\n\n### `@repa/a/testing`\n\n- `fake`: a fake.\n\n### `@repa/a/schema.json`\n\nThe schema.\n',
      ),
    );
    expect(checkApiDocs(root)).toEqual([]);
  });

  it('fails on an export not documented, and on a documented name or entry that does not exist', () => {
    const root = builtPackage();
    writeApiReports(root);
    writeFileSync(
      join(root, 'packages/a/README.md'),
      readme(
        '### `@repa/a`\n\n- `open`, `close`: open and close.\n- `ready`: whether.\n\n### `@repa/a/testing`\n\n- `fake`: a fake.\n\n### `@repa/a/extra`\n\nNothing.\n',
      ),
    );
    expect(checkApiDocs(root)).toEqual([
      'packages/a/README.md: @repa/a exports Options, not documented',
      'packages/a/README.md: no `### `@repa/a/schema.json`` in its `## API` section',
      'packages/a/README.md: documents close, not exported by @repa/a',
      'packages/a/README.md: documents @repa/a/extra, which is not an entry',
    ]);
  });

  it("finds each package's README documenting exactly the names of its api-report.md", () => {
    expect(checkApiDocs(repoRoot)).toEqual([]);
  });
});
