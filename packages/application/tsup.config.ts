import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  dts: true,
  sourcemap: true,
  clean: true,
  // Keep `node:sqlite` as written: it exists only under the `node:` scheme.
  removeNodeProtocol: false,
});
