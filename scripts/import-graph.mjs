// Rules over one package's import graph (file → the files of the package it imports), used by
// check-layers.mjs: no cycle among files, and two rules for folders. At every level of the tree,
// the folders and loose files side by side import each other in no cycle (a folder stands for every
// file under it; tests aside), and a folder with an `index.ts` (its face) is imported from outside
// only through that face.
import { existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

/** Every import cycle among `graph`'s nodes (strongly connected components, Tarjan), as paths. */
export function importCycles(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  let next = 0;
  const visit = (file) => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file), low.get(target)));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file), index.get(target)));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.has(file)) cycles.push(component.reverse());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

/** The folders between `dir` (excluded) and `file`'s own folder (included), outermost first. */
function foldersOf(dir, file) {
  const parts = relative(dir, dirname(file)).split(sep).filter(Boolean);
  return parts.map((_, at) => join(dir, ...parts.slice(0, at + 1)));
}

/**
 * The folder rules broken in the package at `dir`, as lines naming paths from `root`: a cycle among
 * the folders and files side by side in one folder, and an import past a folder's `index.ts`.
 * Only imports of production files count (`isTest` tells the tests apart).
 */
export function folderViolations(root, dir, graph, isTest) {
  const violations = [];
  const show = (path) => relative(root, path);
  // level (a folder) → child → child → an import that makes the step
  const levels = new Map();
  for (const [file, targets] of graph) {
    if (isTest(file)) continue;
    const from = foldersOf(dir, file);
    for (const target of targets) {
      const to = foldersOf(dir, target);
      let shared = 0;
      while (shared < from.length && from[shared] === to[shared]) shared += 1;
      const face = to.slice(shared).find((folder) => existsSync(join(folder, 'index.ts')));
      if (face && target !== join(face, 'index.ts')) {
        violations.push(
          `${show(file)}: imports ${show(target)} past its folder's face; import it from ${show(join(face, 'index.ts'))} (export it there if it is missing)`,
        );
      }
      const level = shared === 0 ? dir : from[shared - 1];
      const child = (path, folders) => folders[shared] ?? path;
      const a = child(file, from);
      const b = child(target, to);
      if (a === b) continue;
      if (!levels.has(level)) levels.set(level, new Map());
      const steps = levels.get(level);
      if (!steps.has(a)) steps.set(a, new Map());
      if (!steps.get(a).has(b)) steps.get(a).set(b, `${show(file)} imports ${show(target)}`);
    }
  }
  for (const [level, steps] of levels) {
    const graphOfLevel = new Map([...steps].map(([a, to]) => [a, new Set(to.keys())]));
    for (const cycle of importCycles(graphOfLevel)) {
      // A cycle of files alone is reported as a file cycle.
      if (!cycle.some((node) => !graph.has(node))) continue;
      const members = new Set(cycle);
      const name = (node) =>
        graph.has(node) ? relative(level, node) : `${relative(level, node)}/`;
      const how = cycle.flatMap((a) =>
        [...(steps.get(a) ?? [])].filter(([b]) => members.has(b)).map(([, example]) => example),
      );
      violations.push(
        `${show(level) || '.'}: folder import cycle among ${cycle.map(name).join(', ')} (${how.join('; ')}); move the shared piece into the folder that the others import`,
      );
    }
  }
  return violations;
}
