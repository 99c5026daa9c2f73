#!/usr/bin/env node
// Design citations: source comments (and test names) under packages/ and apps/ cite requirements as "spec Rnn", which
// must be numbered in docs/design.md; and no source may point at documents a reader of the repository
// cannot see ("§10" of the old spec, anything under ../shared). Conformance tests
// (`*.conformance.test.ts`) are exempt from the second rule: they read ../shared/conformance by design.
// Usage: `node scripts/check-design-citations.mjs [root]`; exit 1 on any violation.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

function* sourceFiles(dir) {
  let names = [];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(name) && !name.endsWith('.d.ts')) yield path;
  }
}

/** Every comment and string literal of a source file (test names cite requirements too), with its
 * 1-based line, found by TypeScript's own scanner. */
function commentsOf(text, jsx) {
  const scanner = ts.createScanner(
    ts.ScriptTarget.Latest,
    false,
    jsx ? ts.LanguageVariant.JSX : ts.LanguageVariant.Standard,
    text,
  );
  const comments = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (
      kind === ts.SyntaxKind.SingleLineCommentTrivia ||
      kind === ts.SyntaxKind.MultiLineCommentTrivia ||
      kind === ts.SyntaxKind.StringLiteral ||
      kind === ts.SyntaxKind.NoSubstitutionTemplateLiteral
    ) {
      const start = scanner.getTokenStart();
      const line = text.slice(0, start).split('\n').length;
      comments.push({ line, text: scanner.getTokenText() });
    }
  }
  return comments;
}

/** The requirement numbers docs/design.md defines (each written as a bold `**Rnn.**`). */
export function designRequirements(root) {
  const text = readFileSync(join(root, 'docs', 'design.md'), 'utf8');
  return new Set([...text.matchAll(/\*\*R(\d+)\.\*\*/g)].map((match) => Number(match[1])));
}

/** Every violation under `root`, as human-readable lines naming the file and line. */
export function checkDesignCitations(root) {
  const defined = designRequirements(root);
  const violations = [];
  for (const group of ['packages', 'apps']) {
    for (const file of sourceFiles(join(root, group))) {
      const where = relative(root, file);
      const text = readFileSync(file, 'utf8');
      for (const comment of commentsOf(text, /\.(tsx|jsx)$/.test(file))) {
        for (const match of comment.text.matchAll(/\bR(\d+)\b/g)) {
          if (!defined.has(Number(match[1]))) {
            violations.push(`${where}:${comment.line}: cites R${match[1]}, not in docs/design.md`);
          }
        }
      }
      if (file.endsWith('.conformance.test.ts')) continue;
      text.split('\n').forEach((line, index) => {
        if (line.includes('§10')) {
          violations.push(`${where}:${index + 1}: cites §10 (cite docs/design.md instead)`);
        }
        if (line.includes('../shared')) {
          violations.push(`${where}:${index + 1}: cites ../shared, which is not in the repository`);
        }
      });
    }
  }
  return violations;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const violations = checkDesignCitations(root);
  for (const line of violations) console.error(line);
  if (violations.length > 0) process.exit(1);
  console.log('Design citations check passed.');
}
