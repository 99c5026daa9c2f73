// Where Pi may be loaded, used by check-layers.mjs: which imports load Pi (Pi itself, or a workspace
// entry its package does not declare Pi-free), the static value imports of a file (so a package that
// loads another lazily can be held to `import type` and `import()`), and the walk from each Pi-free
// entry through every file it reaches.
import { join, relative } from 'node:path';
import ts from 'typescript';

/** Pi's functions that build a session: only a package with `sessions` may import them. */
export const SESSION_BUILDERS = ['createAgentSession', 'AgentSession'];

/** The workspace or npm package a bare specifier names (`@scope/name` or `name`). */
function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * Whether importing `specifier` loads Pi: one of `pi` (Pi's packages), or an entry of a package of
 * `layers` that may import Pi and does not declare that entry in its `piFree`.
 */
export function reachesPi(specifier, layers, pi) {
  const pkg = packageName(specifier);
  if (pi.includes(pkg)) return true;
  const rule = layers[pkg];
  if (!rule?.pi) return false;
  const subpath = `.${specifier.slice(pkg.length)}`;
  return !Object.hasOwn(rule.piFree ?? {}, subpath);
}

/**
 * A file's static imports that load a module at run time (not `import type`), each with the names
 * it imports as values (by AST; `import()` is not one of them).
 */
export function valueImports(source) {
  const found = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier))
      continue;
    const clause = statement.importClause;
    if (clause?.isTypeOnly) continue;
    const bindings = clause?.namedBindings;
    const names =
      bindings && ts.isNamedImports(bindings)
        ? bindings.elements
            .filter((element) => !element.isTypeOnly)
            .map((element) => (element.propertyName ?? element.name).text)
        : [];
    found.push({ specifier: statement.moduleSpecifier.text, names });
  }
  return found;
}

/**
 * Every file reachable from each `piFree` entry of the package at `dir` (through `graph`, its
 * relative imports; `imports`: each file's bare specifiers) that imports Pi or an entry that loads
 * it, as violations; an exported Pi-free entry that is missing is one too.
 */
export function piFreeViolations({ root, dir, manifest, rule, graph, imports, layers, pi }) {
  const violations = [];
  for (const [subpath, file] of Object.entries(rule.piFree ?? {})) {
    const entry = join(dir, file);
    const shown = `${manifest.name}${subpath.slice(1)}`;
    if (!graph.has(entry)) {
      if (manifest.exports?.[subpath] !== undefined)
        violations.push(`${relative(root, dir)}: ${shown}'s Pi-free entry ${file} is missing`);
      continue;
    }
    const seen = new Set([entry]);
    for (const at of seen) {
      for (const specifier of imports.get(at) ?? []) {
        if (reachesPi(specifier, layers, pi))
          violations.push(
            `${relative(root, at)}: imports '${specifier}', which loads Pi; ${shown} (${file}) must reach no Pi, so move what needs it behind an entry that may`,
          );
      }
      for (const next of graph.get(at) ?? []) seen.add(next);
    }
  }
  return violations;
}
