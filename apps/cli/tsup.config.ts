import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/main.ts'],
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  sourcemap: true,
  clean: true,
  // The protocol and zod in the bundle: a command loads one file instead of resolving and linking
  // a hundred modules (zod's), which every `repa` process paid at start.
  noExternal: ['@repa/protocol', 'zod'],
});
