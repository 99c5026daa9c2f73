import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without type declarations
import { checkLayers } from './check-layers.mjs';
import { manifest, workspace } from './test/layers-workspace.js';

// The rules of pi-reach.mjs, through the layering check that applies them.
describe('checkLayers: where Pi may be loaded', () => {
  /** Content with a Pi-free root entry reaching `store.ts`, and a tools entry that loads Pi. */
  const content = (store: string): Record<string, string> => ({
    'packages/content/package.json': JSON.stringify({
      name: '@repa/content',
      exports: { '.': './dist/index.js', './tools': './dist/tools-entry.js' },
    }),
    'packages/content/src/index.ts': "export { open } from './store/index.js';\n",
    'packages/content/src/store/index.ts': "export { open } from './store.js';\n",
    'packages/content/src/store/store.ts': store,
    'packages/content/src/tools-entry.ts':
      "import { defineTool } from '@earendil-works/pi-coding-agent';\nexport const tools = [defineTool];\n",
  });

  it("fails when a file content's root entry reaches imports Pi, through any number of files", () => {
    const clean = content('export const open = () => 1;\n');
    expect(checkLayers(workspace(clean))).toEqual([]);
    const root = workspace(
      content(
        "import { formatSize } from '@earendil-works/pi-coding-agent';\nexport const open = formatSize;\n",
      ),
    );
    expect(checkLayers(root)).toEqual([
      expect.stringContaining(
        "packages/content/src/store/store.ts: imports '@earendil-works/pi-coding-agent', which loads Pi; @repa/content (src/index.ts) must reach no Pi",
      ),
    ]);
  });

  it("fails when content's root entry reaches Pi through a workspace package that loads it", () => {
    const root = workspace({
      ...content("import type { View } from '@repa/context';\nexport const open = 1;\n"),
      'packages/content/package.json': manifest('@repa/content', { '@repa/context': '*' }),
    });
    const violations = checkLayers(root).join('\n');
    expect(violations).toContain("store.ts: imports '@repa/context', which loads Pi");
  });

  it("lets application import the content store, but not content's Pi tools", () => {
    const files = {
      ...content('export const open = () => 1;\n'),
      'packages/application/package.json': manifest('@repa/application', {
        '@repa/content': 'workspace:*',
      }),
      'packages/application/src/files.ts': "import { open } from '@repa/content';\nopen();\n",
    };
    expect(checkLayers(workspace(files))).toEqual([]);
    const root = workspace({
      ...files,
      'packages/application/src/tools.ts': "import { tools } from '@repa/content/tools';\n",
    });
    expect(checkLayers(root)).toEqual([
      expect.stringContaining(
        "packages/application/src/tools.ts: imports '@repa/content/tools', which loads Pi; @repa/application must stay Pi-free",
      ),
    ]);
  });

  it('lets application load host only lazily: import type and import(), never a static import', () => {
    const files = {
      'packages/application/package.json': manifest('@repa/application'),
      'packages/application/src/load.ts':
        "import type * as Host from '@repa/host';\nexport const load = (): Promise<typeof Host> => import('@repa/host');\n",
    };
    expect(checkLayers(workspace(files))).toEqual([]);
    const root = workspace({
      ...files,
      'packages/application/src/eager.ts':
        "import { type PiModels, chooseModel } from '@repa/host';\n",
      'packages/application/src/eager.test.ts': "import { chooseModel } from '@repa/host';\n",
    });
    expect(checkLayers(root)).toEqual([
      expect.stringContaining(
        "packages/application/src/eager.ts: imports '@repa/host' when it loads; @repa/application loads it lazily",
      ),
    ]);
  });

  it('lets only host build Pi sessions', () => {
    const build = "import { createAgentSession } from '@earendil-works/pi-coding-agent';\n";
    const root = workspace({
      'packages/host/package.json': manifest('@repa/host'),
      'packages/host/src/assemble.ts': build,
      'packages/context/package.json': manifest('@repa/context'),
      'packages/context/src/view.ts':
        "import type { AgentSession } from '@earendil-works/pi-coding-agent';\nexport type S = AgentSession;\n",
      'packages/context/src/view.test.ts': build,
      'packages/context/src/session.ts': build,
    });
    expect(checkLayers(root)).toEqual([
      expect.stringContaining(
        "packages/context/src/session.ts: imports '@earendil-works/pi-coding-agent' createAgentSession; only host builds Pi sessions",
      ),
    ]);
  });

  it('keeps documents below content: it imports protocol only, and content imports it', () => {
    const root = workspace({
      'packages/documents/package.json': manifest('@repa/documents'),
      'packages/documents/src/a.ts': "import { RepaError } from '@repa/protocol';\n",
      'packages/documents/src/b.ts': "import { ContentStore } from '@repa/content';\n",
      'packages/content/package.json': manifest('@repa/content'),
      'packages/content/src/index.ts': "export { readDocument } from './read.js';\n",
      'packages/content/src/read.ts':
        "import { readDocument as read } from '@repa/documents';\nexport const readDocument = read;\n",
    });
    expect(checkLayers(root)).toEqual([
      expect.stringContaining("packages/documents/src/b.ts: imports '@repa/content'"),
    ]);
  });
});
