// Builds the web app into dist/: one bundled, minified script and stylesheet beside index.html.
// Everything ships in the build (no CDN at run time); the daemon serves dist/ as static files.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = dirname(fileURLToPath(import.meta.url));
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
await build({
  entryPoints: { app: join(root, 'src/main.ts'), styles: join(root, 'src/styles.css') },
  outdir: dist,
  bundle: true,
  minify: true,
  sourcemap: true,
  format: 'esm',
  target: ['chrome110', 'firefox110', 'safari16'],
  legalComments: 'linked',
  logLevel: 'warning',
});
copyFileSync(join(root, 'src/index.html'), join(dist, 'index.html'));
