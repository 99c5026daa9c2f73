// Each member's TSDoc and its JSON Schema `description` are the same text: a member
// whose `.describe()` drifts from its comment, or that has one without the other, fails here.
import { readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const folders = ['./', '../errors/'].map((folder) => new URL(folder, import.meta.url));

/** `[file:line member, tsdoc, description]` of every commented member passed to a zod call. */
function members(): [string, string, string | undefined][] {
  const found: [string, string, string | undefined][] = [];
  for (const folder of folders) {
    for (const name of readdirSync(folder).filter((file) => /(?<!\.test)\.ts$/.test(file))) {
      const text = readFileSync(new URL(name, folder), 'utf8');
      const file = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        if (ts.isPropertyAssignment(node) && ts.isObjectLiteralExpression(node.parent)) {
          const call = node.parent.parent;
          const inZod =
            ts.isCallExpression(call) &&
            /^z\.|\.extend$/.test(call.expression.getText(file).replace(/\s+/g, ''));
          const docs = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
          if (inZod && docs.length > 0 && !ts.isObjectLiteralExpression(node.initializer)) {
            const doc = docs
              .map((d) => ts.getTextOfJSDocComment(d.comment) ?? '')
              .join(' ')
              .replace(/\s+/g, ' ')
              .trim();
            const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
            found.push([`${name}:${line} ${node.name.getText(file)}`, doc, describedAs(node)]);
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(file);
    }
  }
  return found;
}

/** The string literal of the outermost `.describe(…)` of a member's initializer. */
function describedAs(node: ts.PropertyAssignment): string | undefined {
  const init = node.initializer;
  if (!ts.isCallExpression(init) || !ts.isPropertyAccessExpression(init.expression)) return;
  if (init.expression.name.text !== 'describe') return;
  const [argument] = init.arguments;
  return argument && ts.isStringLiteralLike(argument) ? argument.text : undefined;
}

describe('member descriptions', () => {
  it('match the TSDoc of every commented member of the wire schemas', () => {
    const all = members();
    expect(all.length).toBeGreaterThan(100);
    const drifted = all.filter(([, doc, description]) => doc !== description);
    expect(drifted).toEqual([]);
  });
});
