import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without type declarations
import { checkLayers } from './check-layers.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function workspace(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'repa-layers-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const manifest = (name: string, dependencies: Record<string, string> = {}) =>
  JSON.stringify({ name, dependencies });

describe('checkLayers', () => {
  it('passes on this repository', () => {
    expect(checkLayers(repoRoot)).toEqual([]);
  });

  it('fails when settings imports host', () => {
    const root = workspace({
      'packages/settings/package.json': manifest('@repa/settings'),
      'packages/settings/src/index.ts': "import { x } from '@repa/host';\nexport { x };\n",
    });
    expect(checkLayers(root)).toEqual([
      expect.stringContaining("packages/settings/src/index.ts: imports '@repa/host'"),
    ]);
  });

  it('fails when siblings import each other, by import or by manifest', () => {
    const root = workspace({
      'packages/content/package.json': manifest('@repa/content', {
        '@repa/context': 'workspace:*',
      }),
      'packages/content/src/a.ts': "export const a = await import('@repa/context');\n",
    });
    const violations = checkLayers(root);
    expect(violations).toHaveLength(2);
    expect(violations.join('\n')).toContain('must not depend on @repa/context');
  });

  it('lets settings, context, content and host import durable-fs', () => {
    const files: Record<string, string> = {};
    for (const pkg of ['settings', 'context', 'content', 'host']) {
      files[`packages/${pkg}/package.json`] = manifest(`@repa/${pkg}`, {
        '@repa/durable-fs': 'workspace:*',
      });
      files[`packages/${pkg}/src/a.ts`] = "import { replaceFile } from '@repa/durable-fs';\n";
    }
    expect(checkLayers(workspace(files))).toEqual([]);
  });

  it('fails when durable-fs imports any package above protocol', () => {
    const siblings = ['settings', 'prompt', 'context', 'content', 'host'];
    const files: Record<string, string> = {
      'packages/durable-fs/package.json': manifest('@repa/durable-fs', {
        '@repa/protocol': 'workspace:*',
      }),
      'packages/durable-fs/src/ok.ts': "import { RepaError } from '@repa/protocol';\n",
    };
    for (const pkg of siblings) {
      files[`packages/durable-fs/src/${pkg}.ts`] = `import * as x from '@repa/${pkg}';\n`;
    }
    const violations = checkLayers(workspace(files));
    expect(violations).toHaveLength(siblings.length);
    for (const pkg of siblings) {
      expect(violations.join('\n')).toContain(
        `packages/durable-fs/src/${pkg}.ts: imports '@repa/${pkg}'`,
      );
    }
  });

  it('fails when prompt imports Pi, even with a type-only import', () => {
    const root = workspace({
      'packages/prompt/package.json': manifest('@repa/prompt'),
      'packages/prompt/src/a.ts': "import type { Model } from '@earendil-works/pi-ai';\n",
    });
    expect(checkLayers(root).join('\n')).toContain('must stay Pi-free');
  });

  it('fails on a relative import that leaves the package', () => {
    const root = workspace({
      'packages/protocol/package.json': manifest('@repa/protocol'),
      'packages/protocol/src/a.ts': "export * from '../../host/src/index.js';\n",
    });
    expect(checkLayers(root).join('\n')).toContain('reaches outside @repa/protocol');
  });

  it('fails on a package missing from the layer table', () => {
    const root = workspace({ 'packages/extra/package.json': manifest('@repa/extra') });
    expect(checkLayers(root).join('\n')).toContain('no entry in the layer table');
  });

  it('lets tests use fixtures but not production code', () => {
    const root = workspace({
      'packages/prompt/package.json': manifest('@repa/prompt'),
      'packages/prompt/src/a.test.ts': "import { fixturePath } from '@repa/fixtures';\n",
      'packages/prompt/src/b.ts': "import { fixturePath } from '@repa/fixtures';\n",
    });
    const violations = checkLayers(root);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toContain('src/b.ts');
  });
});
