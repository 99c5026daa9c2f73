#!/usr/bin/env node
// Public-API reports (spec R85): one `api-report.md` per published package (packages/*), read from
// the built declarations (`tsc --build` writes them) of every `exports` subpath with TypeScript's
// compiler API: each exported name with its kind and its declaration, comments left out. `--check`
// (run by `npm run check`, after `tsc --build`) fails while a committed report differs from the
// declarations, so an export added, removed or changed shows in the same commit as its report.
// Usage: `node scripts/api-report.mjs [--check] [root]` (`npm run api:report` writes the reports).
import { existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The file each package's report is kept in. */
export const REPORT_FILE = 'api-report.md';

/** A variable's type longer than this (or of more than one line) is shown cut, with a digest of the whole. */
const LONG_TYPE = 240;

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/** The published packages: every folder of packages/ with a package.json. */
export function publishedPackages(root) {
  const dir = join(root, 'packages');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => existsSync(join(dir, name, 'package.json')))
    .sort()
    .map((name) => {
      const path = join(dir, name);
      const manifest = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8'));
      return { dir: path, name: manifest.name, exports: manifest.exports ?? {} };
    });
}

/** A package's entries: each `exports` subpath (but `./package.json`) and its declaration file. */
export function packageEntries(pkg) {
  return Object.entries(pkg.exports)
    .filter(([subpath]) => subpath !== './package.json')
    .map(([subpath, target]) => {
      const types = typeof target === 'string' ? undefined : target.types;
      return {
        specifier: subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`,
        target: typeof target === 'string' ? target : (target.import ?? target.default),
        types: types === undefined ? undefined : join(pkg.dir, types),
      };
    });
}

const KINDS = [
  [ts.SyntaxKind.ClassDeclaration, 'class'],
  [ts.SyntaxKind.InterfaceDeclaration, 'interface'],
  [ts.SyntaxKind.TypeAliasDeclaration, 'type'],
  [ts.SyntaxKind.FunctionDeclaration, 'function'],
  [ts.SyntaxKind.VariableDeclaration, 'const'],
  [ts.SyntaxKind.EnumDeclaration, 'enum'],
  [ts.SyntaxKind.ModuleDeclaration, 'namespace'],
  [ts.SyntaxKind.SourceFile, 'namespace'],
];

const digest = (text) => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
};

/** A declaration as text: comments, `export` and `declare` left out. */
function declarationText(node, checker) {
  if (ts.isVariableDeclaration(node)) {
    const keyword = node.parent.flags & ts.NodeFlags.Const ? 'const' : 'let';
    const type = node.type
      ? printer.printNode(ts.EmitHint.Unspecified, node.type, node.getSourceFile())
      : checker.typeToString(checker.getTypeAtLocation(node));
    // An inferred type's members come in the order the compiler met them, which differs between
    // a full and an incremental build: a type of more than one line is shown by its first line and
    // a digest of its lines sorted, the same for the same members in any order.
    const lines = type.split('\n');
    const shown =
      lines.length > 1 || type.length > LONG_TYPE
        ? `${lines[0]?.slice(0, 80).trimEnd()} … (${lines.length} lines, digest ${digest(
            lines
              .map((line) => line.trim())
              .sort()
              .join('\n'),
          )})`
        : type;
    return `${keyword} ${node.name.getText()}: ${shown};`;
  }
  if (ts.isSourceFile(node)) {
    const names = checker
      .getExportsOfModule(checker.getSymbolAtLocation(node))
      .map((s) => s.name)
      .sort();
    return `namespace { ${names.join(', ')} }`;
  }
  const modifiers = (ts.getModifiers(node) ?? []).filter(
    (m) =>
      m.kind !== ts.SyntaxKind.ExportKeyword &&
      m.kind !== ts.SyntaxKind.DeclareKeyword &&
      m.kind !== ts.SyntaxKind.DefaultKeyword,
  );
  const bare = ts.canHaveModifiers(node)
    ? ts.factory.replaceModifiers(node, modifiers)
    : /** @type {ts.Node} */ (node);
  return printer.printNode(ts.EmitHint.Unspecified, bare, node.getSourceFile()).trim();
}

/** The dependency a file belongs to (its package name), or undefined for the workspace's own. */
function foreignModule(root, path) {
  const file = existsSync(path) ? realpathSync(path) : path;
  const at = file.lastIndexOf('/node_modules/');
  if (at < 0) return relative(join(root, 'packages'), file).startsWith('..') ? file : undefined;
  const [scope, name] = file.slice(at + '/node_modules/'.length).split('/');
  return scope?.startsWith('@') ? `${scope}/${name}` : scope;
}

/** The module a re-exported dependency's name comes from, following the chain of aliases. */
function foreignSource(checker, symbol) {
  let alias = symbol;
  while (alias.flags & ts.SymbolFlags.Alias) {
    const next = checker.getImmediateAliasedSymbol(alias);
    if (next?.declarations?.length) {
      alias = next;
      continue;
    }
    const declaration = alias.declarations?.[0];
    const statement = declaration && ts.findAncestor(declaration, (n) => 'moduleSpecifier' in n);
    return statement?.moduleSpecifier?.text;
  }
  return undefined;
}

/** The exported names of one entry, each `{ name, kind, text }`, sorted by name. */
function entryExports(program, checker, file) {
  const source = program.getSourceFile(file);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) return [];
  return checker
    .getExportsOfModule(module)
    .map((symbol) => {
      const target =
        symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const declarations = (target.declarations ?? []).filter((d) =>
        KINDS.some(([kind]) => kind === d.kind),
      );
      const kinds = [...new Set(declarations.map((d) => KINDS.find(([k]) => k === d.kind)[1]))];
      const foreign = declarations.length === 0 ? foreignSource(checker, symbol) : undefined;
      const original = ts.findAncestor(
        symbol.declarations?.[0],
        ts.isExportSpecifier,
      )?.propertyName;
      const imported = original ? `${original.text} as ${symbol.name}` : symbol.name;
      const text = foreign
        ? `export { ${imported} } from '${foreign}';`
        : declarations.map((d) => declarationText(d, checker)).join('\n');
      return { name: symbol.name, kind: foreign ? 're-export' : kinds.join(' + '), text };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The program over every entry's declarations: one for all packages, and only the workspace's own
 * declarations parsed (a dependency's module reads as empty: its names are shown as re-exported).
 */
function declarationProgram(root, files) {
  const options = {
    noEmit: true,
    noLib: true,
    types: [],
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2023,
  };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile;
  host.getSourceFile = (file, language, ...rest) =>
    foreignModule(root, file) === undefined
      ? read.call(host, file, language, ...rest)
      : ts.createSourceFile(file, 'export {};', language);
  return ts.createProgram({ rootNames: files, options, host });
}

/**
 * Each package's report text, keyed by package directory; `missing` lists the declaration files
 * that are not built.
 */
export function apiReports(root) {
  const packages = publishedPackages(root).map((pkg) => ({ pkg, entries: packageEntries(pkg) }));
  const files = packages.flatMap(({ entries }) => entries.map((e) => e.types).filter(Boolean));
  const missing = files.filter((file) => !existsSync(file));
  const program = declarationProgram(
    root,
    files.filter((file) => existsSync(file)),
  );
  const checker = program.getTypeChecker();
  const reports = new Map();
  for (const { pkg, entries } of packages) {
    const lines = [
      `# ${pkg.name}: public API`,
      '',
      'Generated by `npm run api:report` from the built declarations of every `exports` subpath;',
      'do not edit. `npm run check` fails while this file differs from them (spec R85).',
    ];
    for (const entry of entries) {
      lines.push('', `## \`${entry.specifier}\``, '');
      if (entry.types === undefined) {
        lines.push(`No declarations: \`${entry.target}\`.`);
        continue;
      }
      const names = entryExports(program, checker, entry.types);
      if (names.length === 0) lines.push('No exports.');
      for (const { name, kind, text } of names) {
        lines.push(`### \`${name}\` (${kind})`, '', '```ts', text, '```', '');
      }
      if (lines.at(-1) === '') lines.pop();
    }
    reports.set(pkg.dir, `${lines.join('\n')}\n`);
  }
  return { reports, missing };
}

/** The exported names of a report, by entry: `Map<specifier, Set<name>>`. */
export function reportNames(text) {
  const entries = new Map();
  let current;
  for (const line of text.split('\n')) {
    const entry = /^## `([^`]+)`$/u.exec(line);
    if (entry) {
      current = new Set();
      entries.set(entry[1], current);
    }
    const name = /^### `([^`]+)`/u.exec(line);
    if (name && current) current.add(name[1]);
  }
  return entries;
}

/** Each report's exports, by entry: `Map<specifier, Map<name, section text>>`. */
function reportSections(text) {
  const entries = new Map();
  let current;
  let name;
  for (const line of text.split('\n')) {
    const entry = /^## `([^`]+)`$/u.exec(line);
    const heading = /^### `([^`]+)`/u.exec(line);
    if (entry) {
      current = new Map();
      entries.set(entry[1], current);
      name = undefined;
    } else if (heading && current) {
      name = heading[1];
      current.set(name, line);
    } else if (name && current) current.set(name, `${current.get(name)}\n${line}`);
  }
  return entries;
}

/** What differs between two reports: names added, removed and changed, by entry. */
export function reportChanges(before, after) {
  const was = reportSections(before);
  const now = reportSections(after);
  const changes = [];
  for (const specifier of new Set([...was.keys(), ...now.keys()])) {
    const a = was.get(specifier) ?? new Map();
    const b = now.get(specifier) ?? new Map();
    if (!was.has(specifier)) changes.push(`entry ${specifier} added`);
    if (!now.has(specifier)) changes.push(`entry ${specifier} removed`);
    for (const name of b.keys()) {
      if (!a.has(name)) changes.push(`${specifier}: ${name} added`);
      else if (a.get(name).trim() !== b.get(name).trim())
        changes.push(`${specifier}: ${name} changed`);
    }
    for (const name of a.keys()) if (!b.has(name)) changes.push(`${specifier}: ${name} removed`);
  }
  return changes;
}

/**
 * The names a README's `## API` section documents, by entry: each `### \`<entry>\`` heading, then
 * bullets naming exports before their description (`` - `a`, `b`: what they are. ``).
 */
export function readmeNames(text) {
  const section = /^## API\n([\s\S]*?)(?=^## |(?![\s\S]))/mu.exec(text)?.[1] ?? '';
  const entries = new Map();
  let current;
  for (const line of section.split('\n')) {
    const entry = /^### `([^`]+)`$/u.exec(line);
    if (entry) {
      current = new Set();
      entries.set(entry[1], current);
    }
    const names = /^- ((?:`[^`]+`(?:, )?)+):/u.exec(line)?.[1];
    for (const [, name] of names?.matchAll(/`([^`]+)`/gu) ?? []) current?.add(name);
  }
  return entries;
}

/** One line per entry or name a package's README documents and its report lacks, or the reverse. */
export function checkApiDocs(root) {
  const violations = [];
  for (const pkg of publishedPackages(root)) {
    const at = relative(root, join(pkg.dir, 'README.md'));
    const readme = existsSync(join(pkg.dir, 'README.md'))
      ? readFileSync(join(pkg.dir, 'README.md'), 'utf8')
      : '';
    const report = existsSync(join(pkg.dir, REPORT_FILE))
      ? reportNames(readFileSync(join(pkg.dir, REPORT_FILE), 'utf8'))
      : new Map();
    const documented = readmeNames(readme);
    for (const [entry, names] of report) {
      const docs = documented.get(entry);
      if (!docs) violations.push(`${at}: no \`### \`${entry}\`\` in its \`## API\` section`);
      for (const name of docs ? names : []) {
        if (!docs.has(name)) violations.push(`${at}: ${entry} exports ${name}, not documented`);
      }
    }
    for (const [entry, names] of documented) {
      const exported = report.get(entry);
      if (!exported) violations.push(`${at}: documents ${entry}, which is not an entry`);
      for (const name of exported ? names : []) {
        if (!exported.has(name))
          violations.push(`${at}: documents ${name}, not exported by ${entry}`);
      }
    }
  }
  return violations;
}

/** Writes every package's report; returns the paths written. */
export function writeApiReports(root) {
  const { reports, missing } = apiReports(root);
  if (missing.length > 0) throw new Error(notBuilt(root, missing));
  const written = [];
  for (const [dir, text] of reports) {
    const path = join(dir, REPORT_FILE);
    if (!existsSync(path) || readFileSync(path, 'utf8') !== text) {
      writeFileSync(path, text);
      written.push(relative(root, path));
    }
  }
  return written;
}

const notBuilt = (root, missing) =>
  `declarations not built: ${missing.map((file) => relative(root, file)).join(', ')}; run \`npx tsc --build\` first`;

/** One line per package whose committed report differs from its built declarations. */
export function checkApiReports(root) {
  const { reports, missing } = apiReports(root);
  if (missing.length > 0) return [notBuilt(root, missing)];
  const violations = [];
  for (const [dir, text] of reports) {
    const path = join(dir, REPORT_FILE);
    const at = relative(root, path);
    if (!existsSync(path)) {
      violations.push(`${at}: missing`);
      continue;
    }
    const committed = readFileSync(path, 'utf8');
    if (committed === text) continue;
    const changes = reportChanges(committed, text);
    violations.push(
      `${at}: differs from the built declarations (${changes.join('; ') || 'layout changed'})`,
    );
  }
  return violations;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const root = resolve(
    args.find((arg) => arg !== '--check') ?? join(dirname(fileURLToPath(import.meta.url)), '..'),
  );
  if (check) {
    const violations = checkApiReports(root);
    if (violations.length > 0) {
      console.error(`API report check failed (${violations.length}):`);
      for (const line of violations) console.error(`  ${line}`);
      console.error(
        'Fix: if the change to the public API is meant, run `npm run api:report` and commit the reports with it; otherwise undo the export change.',
      );
      process.exit(1);
    }
    console.log('API reports match the built declarations.');
  } else {
    const written = writeApiReports(root);
    console.log(written.length > 0 ? `Wrote ${written.join(', ')}` : 'API reports up to date.');
  }
}
