import { defineConfig, type Options } from 'tsup';

/** What every package's and app's build shares: ESM for Node 22, with source maps. */
const NODE_ESM = {
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  sourcemap: true,
} satisfies Options;

/**
 * A library package's build of `entry`; `options` add to it. Declarations come from `tsc --build`
 * (the root project graph), which this build leaves in place.
 */
export function libraryBuild(entry: Options['entry'], options: Options = {}) {
  return defineConfig({
    entry,
    ...NODE_ESM,
    clean: ['!**/*.d.ts', '!**/*.d.ts.map'],
    ...options,
  });
}

/**
 * An app's build: `src/main.ts` bundled, `dist/` emptied first (an app ships no declarations);
 * `options` add to it.
 */
export function appBuild(options: Options = {}) {
  return defineConfig({ entry: ['src/main.ts'], ...NODE_ESM, clean: true, ...options });
}
