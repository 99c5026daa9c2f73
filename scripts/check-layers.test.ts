import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without type declarations
import { checkLayers, LAYERS } from './check-layers.mjs';
import { manifest, workspace } from './test/layers-workspace.js';

// The repository itself is checked by `npm run check` (`node scripts/check-layers.mjs`), which
// `npm test` runs before the tests; these tests show each rule failing on a workspace made for it.
describe('checkLayers', () => {
  it('fails when settings imports host', () => {
    const root = workspace({
      'packages/settings/package.json': manifest('@repa/settings'),
      'packages/settings/src/index.ts': "import { x } from '@repa/host';\nexport const y = x;\n",
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

  it('fails when durable-fs depends on any other workspace package than protocol', () => {
    const above = ['settings', 'prompt', 'context', 'content', 'host', 'application', 'daemon'];
    const dependencies = Object.fromEntries(above.map((pkg) => [`@repa/${pkg}`, 'workspace:*']));
    const violations = checkLayers(
      workspace({
        'packages/durable-fs/package.json': manifest('@repa/durable-fs', {
          '@repa/protocol': 'workspace:*',
          ...dependencies,
        }),
        'packages/durable-fs/src/ok.ts': "import { RepaError } from '@repa/protocol';\n",
      }),
    );
    expect(violations).toHaveLength(above.length);
    for (const pkg of above) {
      expect(violations.join('\n')).toContain(`must not depend on @repa/${pkg}`);
    }
  });

  it('lets the daemon depend on the web app for its files, but not import it; the web app sees only protocol', () => {
    const files = {
      'apps/daemon/package.json': manifest('@repa/daemon', { '@repa/web': 'workspace:*' }),
      'apps/daemon/src/main.ts': "const dir = import.meta.resolve('@repa/web/package.json');\n",
      'apps/web/package.json': manifest('@repa/web'),
      'apps/web/src/a.ts':
        "import type { RunInfo } from '@repa/protocol';\nexport type R = RunInfo;\n",
    };
    expect(checkLayers(workspace(files))).toEqual([]);
    const root = workspace({
      ...files,
      'apps/daemon/src/ui.ts': "import '@repa/web';\n",
      'apps/web/src/b.ts': "import { runDaemon } from '@repa/application';\n",
    });
    expect(checkLayers(root)).toEqual([
      expect.stringContaining("apps/daemon/src/ui.ts: imports '@repa/web'"),
      expect.stringContaining("apps/web/src/b.ts: imports '@repa/application'"),
    ]);
  });

  it('fails when prompt imports Pi, even with a type-only import', () => {
    const root = workspace({
      'packages/prompt/package.json': manifest('@repa/prompt'),
      'packages/prompt/src/a.ts': "import type { Model } from '@earendil-works/pi-ai';\n",
    });
    expect(checkLayers(root).join('\n')).toContain('must stay Pi-free');
  });

  it('fails when settings names Pi as a dependency or a peer, and lets application supply it', () => {
    const pi = { '@earendil-works/pi-ai': '0.87.1' };
    const root = workspace({
      'packages/settings/package.json': JSON.stringify({
        name: '@repa/settings',
        dependencies: pi,
        peerDependencies: { '@earendil-works/pi-coding-agent': '0.87.1' },
      }),
      'packages/application/package.json': JSON.stringify({
        name: '@repa/application',
        peerDependencies: pi,
      }),
    });
    expect(checkLayers(root)).toEqual([
      'packages/settings/package.json: @repa/settings must not depend on Pi (@earendil-works/pi-ai, dependencies)',
      'packages/settings/package.json: @repa/settings must not depend on Pi (@earendil-works/pi-coding-agent, peerDependencies)',
    ]);
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

  it("lets the apps' tests use the test kit, but not the page's code nor another package's tests", () => {
    const kit = "import { createSandbox } from '@repa/test-kit';\n";
    const root = workspace({
      'test-kit/package.json': manifest('@repa/test-kit'),
      'test-kit/src/index.ts': 'export const createSandbox = () => undefined;\n',
      'apps/web/package.json': manifest('@repa/web'),
      'apps/web/test/web-e2e.test.ts': kit,
      'apps/web/test/web-harness.ts': kit,
      'apps/web/src/app.ts': kit,
      'apps/cli/package.json': manifest('@repa/cli'),
      'apps/cli/test/cli-usage.test.ts': kit,
      'packages/host/package.json': manifest('@repa/host'),
      'packages/host/src/a.test.ts': kit,
    });
    expect(checkLayers(root)).toEqual([
      expect.stringContaining("packages/host/src/a.test.ts: imports '@repa/test-kit'"),
      expect.stringContaining("apps/web/src/app.ts: imports '@repa/test-kit'"),
    ]);
  });

  it("fails when a package re-exports another package's symbols", () => {
    const root = workspace({
      'packages/application/package.json': manifest('@repa/application'),
      'packages/application/src/index.ts': "export { chooseModel } from '@repa/host';\n",
      'packages/application/src/other.ts': "export * from '@repa/protocol';\n",
    });
    const violations = checkLayers(root);
    expect(violations).toEqual([
      expect.stringContaining("packages/application/src/index.ts: re-exports '@repa/host'"),
      expect.stringContaining("packages/application/src/other.ts: re-exports '@repa/protocol'"),
    ]);
  });

  it('fails when an imported binding of another package is exported again', () => {
    const root = workspace({
      'packages/host/package.json': manifest('@repa/host'),
      'packages/host/src/index.ts':
        "import { readLearningContext as read } from '@repa/context';\nexport { read };\n",
    });
    expect(checkLayers(root)).toEqual([
      expect.stringContaining("packages/host/src/index.ts: re-exports '@repa/context'"),
    ]);
  });

  it('lets a package re-export its own files and test helpers re-export others', () => {
    const root = workspace({
      'packages/host/package.json': manifest('@repa/host'),
      'packages/host/src/index.ts': "export { a } from './a.js';\n",
      'packages/host/src/a.ts': 'export const a = 1;\n',
      'packages/host/src/test/builders.ts': "export { x } from '@repa/protocol';\n",
    });
    expect(checkLayers(root)).toEqual([]);
  });

  it('fails when library code sets process.env, but not when an app or a test does', () => {
    const root = workspace({
      'packages/host/package.json': manifest('@repa/host'),
      'packages/host/src/a.ts': "process.env.PI_OFFLINE ??= '1';\n",
      'packages/host/src/b.ts': "export const offline = process.env.PI_OFFLINE === '1';\n",
      'packages/host/src/b.test.ts': "process.env.PI_OFFLINE = '1';\n",
      'apps/cli/package.json': manifest('@repa/cli'),
      'apps/cli/src/main.ts': "process.env.PI_OFFLINE ??= '1';\n",
    });
    expect(checkLayers(root)).toEqual([
      expect.stringContaining('packages/host/src/a.ts: sets process.env'),
    ]);
  });

  it('fails on an import cycle inside a package, type-only imports included', () => {
    const root = workspace({
      'packages/host/package.json': manifest('@repa/host'),
      'packages/host/src/models.ts': "import { b } from './faux.js';\nexport const a = b;\n",
      'packages/host/src/faux.ts':
        "import type { C } from './offline.js';\nexport const b: C = 1;\n",
      'packages/host/src/offline.ts':
        "import { a } from './models.js';\nexport type C = typeof a;\n",
      'packages/host/src/index.ts': "export { a } from './models.js';\n",
    });
    const violations = checkLayers(root);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toContain('import cycle among');
    for (const file of ['models.ts', 'faux.ts', 'offline.ts']) {
      expect(violations[0]).toContain(`packages/host/src/${file}`);
    }
    expect(violations[0]).not.toContain('index.ts');
  });

  it('fails on a folder cycle: a folder and a loose file beside it importing each other', () => {
    const root = workspace({
      'packages/host/package.json': manifest('@repa/host'),
      'packages/host/src/conversation/assemble.ts':
        "import { dir } from '../sessions.js';\nexport const a = dir;\n",
      'packages/host/src/conversation/marks.ts': "export const MARK = 'm';\n",
      'packages/host/src/sessions.ts':
        "import { MARK } from './conversation/marks.js';\nexport const dir = MARK;\n",
    });
    expect(checkLayers(root)).toEqual([
      expect.stringContaining(
        'packages/host/src: folder import cycle among conversation/, sessions.ts (packages/host/src/conversation/assemble.ts imports packages/host/src/sessions.ts; packages/host/src/sessions.ts imports packages/host/src/conversation/marks.ts)',
      ),
    ]);
  });

  it('holds every package of the layer table to the folder rules', () => {
    for (const name of Object.keys(LAYERS)) {
      const root = workspace({
        'packages/p/package.json': manifest(name),
        'packages/p/src/errors/error.ts':
          "import type { W } from '../v1/w.js';\nexport type E = W;\n",
        'packages/p/src/v1/w.ts': 'export interface W {}\n',
        'packages/p/src/v1/framing.ts':
          "import type { E } from '../errors/error.js';\nexport type F = E;\n",
      });
      expect(checkLayers(root), name).toEqual([
        expect.stringContaining('packages/p/src: folder import cycle among errors/, v1/'),
      ]);
    }
  });

  it('fails on a cycle between two folders through their faces, though no file cycle exists', () => {
    const files = {
      'packages/host/package.json': manifest('@repa/host'),
      'packages/host/src/models/index.ts': "export { pick } from './pick.js';\n",
      'packages/host/src/models/pick.ts':
        "import { dir } from '../sessions/index.js';\nexport const pick = dir;\n",
      'packages/host/src/models/note.ts': "export const NOTE = 'n';\n",
      'packages/host/src/sessions/index.ts': "export { dir } from './dir.js';\n",
      'packages/host/src/sessions/dir.ts': "export const dir = 'd';\n",
    };
    expect(checkLayers(workspace(files))).toEqual([]);
    const root = workspace({
      ...files,
      'packages/host/src/models/index.ts':
        "export { pick } from './pick.js';\nexport { NOTE } from './note.js';\n",
      'packages/host/src/sessions/read.ts':
        "import { NOTE } from '../models/index.js';\nexport const read = NOTE;\n",
    });
    expect(checkLayers(root)).toEqual([
      expect.stringContaining('packages/host/src: folder import cycle among models/, sessions/'),
    ]);
  });

  it("fails on an import past a folder's index.ts, but not from inside the folder or a test", () => {
    const root = workspace({
      'packages/host/package.json': manifest('@repa/host'),
      'packages/host/src/index.ts': "export { pick } from './models/index.js';\n",
      'packages/host/src/models/index.ts': "export { pick } from './pick.js';\n",
      'packages/host/src/models/pick.ts': "import { x } from './x.js';\nexport const pick = x;\n",
      'packages/host/src/models/x.ts': 'export const x = 1;\n',
      'packages/host/src/models/x.test.ts': "import { x } from './x.js';\n",
      'packages/host/test/x.test.ts': "import { x } from '../src/models/x.js';\n",
      'packages/host/src/host.ts': "import { x } from './models/x.js';\nexport const y = x;\n",
    });
    expect(checkLayers(root)).toEqual([
      expect.stringContaining(
        "packages/host/src/host.ts: imports packages/host/src/models/x.ts past its folder's face; import it from packages/host/src/models/index.ts",
      ),
    ]);
  });

  it("fails on an import of a path another package's `exports` do not list", () => {
    const protocol = JSON.stringify({
      name: '@repa/protocol',
      exports: { '.': './dist/index.js', './node': './dist/node/index.js' },
    });
    const files = {
      'packages/protocol/package.json': protocol,
      'packages/settings/package.json': manifest('@repa/settings', {
        '@repa/protocol': 'workspace:*',
      }),
      'packages/settings/src/ok.ts':
        "import { RepaError } from '@repa/protocol';\nimport type { X } from '@repa/protocol/node';\n",
    };
    expect(checkLayers(workspace(files))).toEqual([]);
    const root = workspace({
      ...files,
      'packages/settings/src/dist.ts': "import { a } from '@repa/protocol/dist/index.js';\n",
      'packages/settings/src/src.ts': "import type { B } from '@repa/protocol/src/v1/runs.js';\n",
      'packages/settings/src/sub.ts': "export const c = await import('@repa/protocol/internal');\n",
    });
    const violations = checkLayers(root);
    expect(violations).toEqual([
      expect.stringContaining(
        "packages/settings/src/dist.ts: imports '@repa/protocol/dist/index.js', which @repa/protocol does not export; import it through @repa/protocol's `exports` (., ./node)",
      ),
      expect.stringContaining(
        "packages/settings/src/src.ts: imports '@repa/protocol/src/v1/runs.js'",
      ),
      expect.stringContaining("packages/settings/src/sub.ts: imports '@repa/protocol/internal'"),
    ]);
  });
});
