// Builds the web app into dist/: one bundled, minified script and stylesheet beside index.html.
// Everything ships in the build (no CDN at run time); the daemon serves dist/ as static files.
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = dirname(fileURLToPath(import.meta.url));

/**
 * zod's classic entry re-exports every locale as one namespace (`export * as locales`), which
 * esbuild cannot tree-shake: about 260 KB of messages in 40 languages the page never shows. zod
 * registers and uses English only, so its locale index is English only here.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(plugin) {
    plugin.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/]/.test(args.importer)
        ? { path: join(args.resolveDir, '../locales/index.js'), namespace: 'zod-english-only' }
        : undefined,
    );
    plugin.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: dirname(args.path),
    }));
  },
};
/** A string literal as esbuild writes it: in quotes, or a template with no backtick inside. */
const LITERAL = /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/u.source;
/** `.describe("…")` with its literal argument (or literals joined by `+`). */
const DESCRIBE = new RegExp(
  `\\.describe\\(\\s*(?:${LITERAL})(?:\\s*\\+\\s*(?:${LITERAL}))*\\s*\\)`,
  'gu',
);

/**
 * The protocol's schemas carry a description for every field (`.describe("…")`, some 55 KB of
 * text), which its JSON Schema and wire types are made from and the page never shows: the page's
 * copy of the protocol is built without them (a description changes nothing a schema accepts).
 */
const protocolWithoutDescriptions = {
  name: 'protocol-without-descriptions',
  setup(plugin) {
    plugin.onLoad({ filter: /[\\/]packages[\\/]protocol[\\/]dist[\\/].*\.js$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replace(DESCRIBE, ''),
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};
const dist = join(root, 'dist');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
await build({
  entryPoints: { app: join(root, 'src/main.ts'), styles: join(root, 'src/styles.css') },
  outdir: dist,
  bundle: true,
  minify: true,
  sourcemap: true,
  format: 'esm',
  // pdf.js is a chunk of its own, loaded when a PDF's pages are first shown.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  target: ['chrome110', 'firefox110', 'safari16'],
  legalComments: 'linked',
  // The client name and version the page sends in `initialize`.
  define: { __REPA_WEB_VERSION__: JSON.stringify(version) },
  logLevel: 'warning',
  plugins: [zodEnglishOnly, protocolWithoutDescriptions],
});
copyFileSync(join(root, 'src/index.html'), join(dist, 'index.html'));
// pdf.js's worker (the legacy build, as the page's), served beside the page as a script.
const pdfjs = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
copyFileSync(join(pdfjs, 'legacy/build/pdf.worker.min.mjs'), join(dist, 'pdf.worker.js'));
