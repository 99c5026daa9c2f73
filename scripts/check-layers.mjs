#!/usr/bin/env node
// Layering check: packages may only import along the graph
//   apps → application → host → {settings, prompt, context, content} → documents, durable-fs → protocol
// (documents reads PDF, DOCX, EPUB and HTML as text; durable-fs holds crash-safe writes and the errno
// helpers; application may also read settings and open a space's content store directly).
// Siblings never import each other; only host, context and content may import Pi, and only host
// (and the benchmarks) builds Pi sessions. A package that imports Pi declares the entries that do
// not (`piFree`: content's root is the store, its `./tools` the Pi tools): every file such an entry
// reaches is walked, and none may import Pi or an entry that loads it (scripts/pi-reach.mjs). A
// Pi-free package imports no entry that loads Pi but those it loads lazily (`lazy`: `import type`
// and `import()`; application loads host at first use). Tests may also import the test kits: any
// package's `@repa/fixtures`, the apps' `@repa/test-kit`. Both source imports (parsed by TypeScript's
// own pre-processor) and package.json dependencies are checked. A workspace package is imported only
// through a subpath its manifest's `exports` list (no `@repa/x/dist/…`, `src/…` or unlisted path; spec R85). A package never re-exports another workspace package's symbols
// (`export … from '@repa/…'`, or an imported binding exported again; test helpers may), the files of
// a package never import each other in a cycle, nor do its folders (a folder with an `index.ts` is
// imported only through it; scripts/import-graph.mjs), and library code (packages/*, tests aside)
// never sets `process.env`. Usage: `node scripts/check-layers.mjs [root]`; exit 1 on any violation.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { folderViolations, importCycles } from './import-graph.mjs';
import { piFreeViolations, reachesPi, SESSION_BUILDERS, valueImports } from './pi-reach.mjs';

const PI = [
  '@earendil-works/pi-ai',
  '@earendil-works/pi-coding-agent',
  '@earendil-works/pi-agent-core',
];

/**
 * Which workspace packages each package may import, whether it may import Pi (`pi`), which of its
 * entries reach no Pi (`piFree`: package subpath → source file), which Pi-reaching packages it loads
 * only lazily (`lazy`), whether it may build Pi sessions (`sessions`), which it may depend on for
 * their built files (`assets`) without importing them, which only its tests may import
 * (`tests`; every package's tests may import `@repa/fixtures`), and whether its package.json may
 * name Pi (in `dependencies` or `peerDependencies`) only to hand it to a package it loads, its own
 * code never importing it (`suppliesPi`).
 */
export const LAYERS = {
  '@repa/protocol': { allow: [], pi: false },
  '@repa/durable-fs': { allow: ['@repa/protocol'], pi: false },
  '@repa/documents': { allow: ['@repa/protocol'], pi: false },
  '@repa/settings': { allow: ['@repa/protocol', '@repa/durable-fs'], pi: false },
  '@repa/prompt': { allow: ['@repa/protocol'], pi: false },
  '@repa/context': { allow: ['@repa/protocol', '@repa/durable-fs'], pi: true },
  // The store is the root entry (no Pi); the Pi tools over it are `@repa/content/tools`.
  '@repa/content': {
    allow: ['@repa/protocol', '@repa/durable-fs', '@repa/documents'],
    pi: true,
    piFree: { '.': 'src/index.ts' },
  },
  '@repa/host': {
    allow: [
      '@repa/protocol',
      '@repa/durable-fs',
      '@repa/settings',
      '@repa/prompt',
      '@repa/context',
      '@repa/documents',
      '@repa/content',
    ],
    pi: true,
    sessions: true,
  },
  '@repa/application': {
    allow: ['@repa/protocol', '@repa/durable-fs', '@repa/settings', '@repa/content', '@repa/host'],
    pi: false,
    lazy: ['@repa/host'],
    suppliesPi: true,
  },
  // Its tests read the notes it writes with the store's own readers (the card comments).
  '@repa/cli': {
    allow: ['@repa/protocol', '@repa/application', '@repa/daemon'],
    tests: ['@repa/test-kit', '@repa/content'],
    pi: false,
    suppliesPi: true,
  },
  // The daemon depends on the web app only to find its built files (assets): it never imports it.
  '@repa/daemon': {
    allow: ['@repa/protocol', '@repa/application'],
    assets: ['@repa/web'],
    pi: false,
    suppliesPi: true,
  },
  // The browser app: the protocol's browser-safe main entry, over the daemon's WebSocket bridge.
  // Its browser tests drive the built CLI through the test kit (Node, never in the page's bundle).
  '@repa/web': { allow: ['@repa/protocol'], tests: ['@repa/test-kit'], pi: false },
  '@repa/fixtures': { allow: [], pi: false },
  // The apps' test kit: the built CLI in a sandbox, a held model endpoint. It finds the CLI by its
  // place in the workspace and imports no workspace package; only the apps' tests import it.
  '@repa/test-kit': { allow: [], pi: false },
  // The benchmarks measure every layer against bare Pi (npm run bench), on the test data.
  '@repa/bench': {
    allow: [
      '@repa/fixtures',
      '@repa/protocol',
      '@repa/settings',
      '@repa/prompt',
      '@repa/context',
      '@repa/content',
      '@repa/host',
      '@repa/application',
    ],
    pi: true,
    sessions: true,
  },
};

/** An assignment to (or deletion from) `process.env`, which only apps and tests may make. */
const SETS_ENV =
  /process\.env(\.[\w$]+|\[[^\]]+\])\s*(=(?!=)|\?\?=|\|\|=|&&=)|delete\s+process\.env|Object\.assign\(\s*process\.env/;

const TEST_FILE = /(\.test\.ts|\.test-d\.ts|\.bench\.ts)$|(^|[\\/])(test|testing-fixtures)[\\/]/;

function packageOf(specifier) {
  if (specifier.startsWith('.') || specifier.startsWith('node:') || specifier.startsWith('/')) {
    return null;
  }
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function* sourceFiles(dir) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(name) && !name.endsWith('.d.ts')) yield path;
  }
}

function workspacePackages(root) {
  const dirs = [];
  for (const group of ['packages', 'apps']) {
    const base = join(root, group);
    let names = [];
    try {
      names = readdirSync(base);
    } catch {
      continue;
    }
    for (const name of names) dirs.push(join(base, name));
  }
  dirs.push(join(root, 'fixtures'), join(root, 'test-kit'), join(root, 'bench'));
  return dirs.filter((dir) => {
    try {
      return statSync(join(dir, 'package.json')).isFile();
    } catch {
      return false;
    }
  });
}

/** A file that imports from a workspace package (only such a file can re-export one's names). */
const FROM_WORKSPACE = /from\s*['"]@repa\//;
/** A statement that may pass names on: `export {…}`, `export type {…}`, `export *`, `export =`, `export default name;`. */
const PASSES_ON = /^[ \t]*export\s*(?:type\s*)?(?:\{|\*|=|default\s+[A-Za-z_$][\w$]*\s*;)/m;

/** Names a file imports from another workspace package, and what it exports from one (by AST). */
function reExports(source, ownName) {
  const foreign = (node) =>
    node.moduleSpecifier &&
    ts.isStringLiteral(node.moduleSpecifier) &&
    packageOf(node.moduleSpecifier.text)?.startsWith('@repa/') &&
    packageOf(node.moduleSpecifier.text) !== ownName;
  const imported = new Map();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !foreign(statement)) continue;
    const clause = statement.importClause;
    const from = statement.moduleSpecifier.text;
    if (clause?.name) imported.set(clause.name.text, from);
    const bindings = clause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) imported.set(bindings.name.text, from);
    if (bindings && ts.isNamedImports(bindings)) {
      for (const element of bindings.elements) imported.set(element.name.text, from);
    }
  }
  const found = [];
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      if (foreign(statement)) {
        found.push(statement.moduleSpecifier.text);
      } else if (!statement.moduleSpecifier && statement.exportClause) {
        if (!ts.isNamedExports(statement.exportClause)) continue;
        for (const element of statement.exportClause.elements) {
          const local = (element.propertyName ?? element.name).text;
          if (imported.has(local)) found.push(imported.get(local));
        }
      }
    } else if (
      ts.isExportAssignment(statement) &&
      ts.isIdentifier(statement.expression) &&
      imported.has(statement.expression.text)
    ) {
      found.push(imported.get(statement.expression.text));
    }
  }
  return found;
}

/** The file a relative specifier names, among `files` (`./a.js` → `a.ts`, `./dir` → `dir/index.ts`). */
function resolveRelative(from, specifier, files) {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(c|m)?js$/, '');
  const candidates = [base];
  for (const ext of ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs']) {
    candidates.push(stem + ext, join(base, `index${ext}`));
  }
  return candidates.find((candidate) => files.has(candidate));
}

/**
 * Whether `specifier` names one of the subpaths a package's manifest exports (`exports` keys, `*`
 * patterns included); a package without `exports` offers only its bare name.
 */
function exportsSubpath(manifest, specifier) {
  const subpath = specifier === manifest.name ? '.' : `.${specifier.slice(manifest.name.length)}`;
  const keys =
    typeof manifest.exports === 'object' && manifest.exports !== null
      ? Object.keys(manifest.exports).filter((key) => key.startsWith('.'))
      : ['.'];
  return keys.some((key) => {
    const [head, tail] = key.split('*');
    return tail === undefined
      ? key === subpath
      : subpath.startsWith(head) && subpath.endsWith(tail) && subpath.length > key.length - 1;
  });
}

/** Every violation of the layering rules under `root`, as human-readable lines. */
export function checkLayers(root) {
  const violations = [];
  const packages = workspacePackages(root).map((dir) => ({
    dir,
    manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')),
  }));
  const manifests = new Map(packages.map(({ manifest }) => [manifest.name, manifest]));
  for (const { dir, manifest } of packages) {
    const name = manifest.name;
    const where = relative(root, dir);
    const rule = LAYERS[name];
    if (!rule) {
      violations.push(
        `${where}: package ${name} has no entry in the layer table (scripts/check-layers.mjs)`,
      );
      continue;
    }
    const allowed = (pkg, isTest) =>
      pkg === name ||
      !pkg.startsWith('@repa/') ||
      rule.allow.includes(pkg) ||
      (isTest && (pkg === '@repa/fixtures' || rule.tests?.includes(pkg)));
    for (const dep of Object.keys(manifest.dependencies ?? {})) {
      if (!allowed(dep, false) && !rule.assets?.includes(dep))
        violations.push(`${where}/package.json: ${name} must not depend on ${dep}`);
    }
    for (const field of ['dependencies', 'peerDependencies']) {
      for (const dep of Object.keys(manifest[field] ?? {})) {
        if (PI.includes(dep) && !rule.pi && !rule.suppliesPi)
          violations.push(
            `${where}/package.json: ${name} must not depend on Pi (${dep}, ${field})`,
          );
      }
    }
    for (const dep of Object.keys(manifest.devDependencies ?? {})) {
      if (!allowed(dep, true))
        violations.push(`${where}/package.json: ${name} must not depend on ${dep}`);
    }
    const files = new Set([...sourceFiles(dir)].filter((file) => !file.endsWith('.config.ts')));
    const graph = new Map();
    const imports = new Map();
    for (const file of files) {
      const isTest = TEST_FILE.test(relative(dir, file));
      const text = readFileSync(file, 'utf8');
      const { importedFiles } = ts.preProcessFile(text, true, true);
      // Parsed whole only when it could pass another package's names on, or load Pi or a package
      // its layer loads lazily (parsing every file was most of this check's time).
      const passesOn = FROM_WORKSPACE.test(text) && PASSES_ON.test(text);
      const loadsWatched = [...(rule.lazy ?? []), ...PI].some((pkg) => text.includes(pkg));
      const source =
        !isTest && (passesOn || loadsWatched)
          ? ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false)
          : undefined;
      const edges = new Set();
      graph.set(file, edges);
      imports.set(file, []);
      if (!isTest && where.startsWith(`packages${sep}`) && SETS_ENV.test(text)) {
        violations.push(
          `${relative(root, file)}: sets process.env; library code only reads it (the apps and tests decide)`,
        );
      }
      for (const from of source && passesOn ? reExports(source, name) : []) {
        violations.push(
          `${relative(root, file)}: re-exports '${from}'; ${name} must not pass another package's symbols on (import them where they are used)`,
        );
      }
      for (const { fileName: specifier } of importedFiles) {
        const at = `${relative(root, file)}: imports '${specifier}'`;
        if (specifier.startsWith('.')) {
          const target = resolve(dirname(file), specifier);
          if (target !== dir && !target.startsWith(dir + sep)) {
            violations.push(`${at}, which reaches outside ${name}`);
          }
          const resolved = resolveRelative(file, specifier, files);
          if (resolved) edges.add(resolved);
          continue;
        }
        const pkg = packageOf(specifier);
        if (!pkg) continue;
        imports.get(file).push(specifier);
        const target = manifests.get(pkg);
        if (target && !exportsSubpath(target, specifier))
          violations.push(
            `${at}, which ${pkg} does not export; import it through ${pkg}'s \`exports\` (${Object.keys(target.exports ?? { '.': '' }).join(', ')})`,
          );
        if (!allowed(pkg, isTest))
          violations.push(
            `${at}; ${name} may import only ${rule.allow.join(', ') || 'no workspace package'}`,
          );
        else if (PI.includes(pkg) && !rule.pi) violations.push(`${at}; ${name} must stay Pi-free`);
        else if (
          !isTest &&
          !rule.pi &&
          !rule.lazy?.includes(pkg) &&
          reachesPi(specifier, LAYERS, PI)
        )
          violations.push(`${at}, which loads Pi; ${name} must stay Pi-free`);
      }
      for (const { specifier, names } of source && loadsWatched ? valueImports(source) : []) {
        const at = `${relative(root, file)}: imports '${specifier}'`;
        if (rule.lazy?.includes(packageOf(specifier)))
          violations.push(
            `${at} when it loads; ${name} loads it lazily (\`import type\`, and \`import()\` at first use)`,
          );
        const builds = names.filter((imported) => SESSION_BUILDERS.includes(imported));
        if (PI.includes(packageOf(specifier)) && builds.length > 0 && !rule.sessions)
          violations.push(`${at} ${builds.join(', ')}; only host builds Pi sessions`);
      }
    }
    violations.push(
      ...piFreeViolations({ root, dir, manifest, rule, graph, imports, layers: LAYERS, pi: PI }),
    );
    for (const cycle of importCycles(graph)) {
      const names = cycle.map((file) => relative(root, file));
      violations.push(
        `${names[0]}: import cycle among ${names.join(', ')}; move the shared piece into a file they all import`,
      );
    }
    const isTest = (file) => TEST_FILE.test(relative(dir, file));
    violations.push(...folderViolations(root, dir, graph, isTest));
  }
  return violations;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const violations = checkLayers(root);
  if (violations.length > 0) {
    console.error(`Layering check failed (${violations.length}):`);
    for (const line of violations) console.error(`  ${line}`);
    console.error(
      'Fix: import only along apps → application → host → {settings, prompt, context, content} → documents, durable-fs → protocol, keep Pi behind the entries that may load it, import symbols from the package that defines them through its `exports`, and break cycles.',
    );
    process.exit(1);
  }
  console.log('Layering check passed.');
}
