#!/usr/bin/env node
// Design citations. Source comments (and test names) under packages/ and apps/ cite requirements
// as "spec Rnn", which must be numbered in docs/design.md; and no source may point at documents a
// reader of the repository cannot see ("§10" of the old spec, anything under ../shared).
// Conformance tests (`*.conformance.test.ts`) are exempt from the second rule: they read
// ../shared/conformance by design. Nor may a comment or string literal (test names) of a source
// under packages/, apps/, bench/, scripts/ or fixtures/, a README or a markdown file of docs/ or
// bench/ cite an issue or pull-request number ("issue 16", "#22"): the tracker is not in the
// repository, so the text says what it means.
// Usage: `node scripts/check-design-citations.mjs [root]`; exit 1 on any violation.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The folders whose sources the issue-number rule covers (the other rules: the first two). */
const SOURCE_GROUPS = ['packages', 'apps', 'bench', 'scripts', 'fixtures'];

/** The checker and its test spell out the citations they refuse. */
const SELF = ['scripts/check-design-citations.mjs', 'scripts/check-design-citations.test.ts'];

/** "issue 16", "Issues #20 and", "PR 7", "pull request 3": a tracker number named as such. */
const NAMED_ISSUE = /\b(?:issues?|PRs?|pull requests?)\s*#?\d+/gi;

/** A bare "#22" in a comment (after a space, a bracket or the comment's start); not "&#39;". */
const HASH_NUMBER = /(?<=^|[\s([{/*])#\d+\b/g;

/** "(#22)" in prose: how markdown cites a tracker number. */
const MARKDOWN_HASH = /\(#\d+\)/g;

/**
 * The files under `dir` whose name `keep` accepts, folders walked depth-first (not node_modules,
 * dist or dot entries); nothing when `dir` cannot be read.
 */
function* filesUnder(dir, keep) {
  let names = [];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* filesUnder(path, keep);
    else if (keep(name)) yield path;
  }
}

const isSource = (name) => /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(name) && !name.endsWith('.d.ts');

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
      const comment =
        kind === ts.SyntaxKind.SingleLineCommentTrivia ||
        kind === ts.SyntaxKind.MultiLineCommentTrivia;
      comments.push({ line, text: scanner.getTokenText(), comment });
    }
  }
  return comments;
}

/** The requirement numbers docs/design.md defines (each written as a bold `**Rnn.**`). */
export function designRequirements(root) {
  const text = readFileSync(join(root, 'docs', 'design.md'), 'utf8');
  return new Set([...text.matchAll(/\*\*R(\d+)\.\*\*/g)].map((match) => Number(match[1])));
}

/** The issue-number citations in `text` (a comment, a string literal or a markdown line), each with
 * its offset in `text`. `hash`: also a bare "#22" (comments only: strings hold "queued #1"). */
function issueCitations(text, { hash = false, markdown = false } = {}) {
  const patterns = [
    NAMED_ISSUE,
    ...(hash ? [HASH_NUMBER] : []),
    ...(markdown ? [MARKDOWN_HASH] : []),
  ];
  return patterns.flatMap((pattern) =>
    [...text.matchAll(pattern)].map((match) => ({ citation: match[0], offset: match.index })),
  );
}

/** The root README, every README under the source folders, and every markdown file of `docs/`
 * and `bench/` (not CHANGELOG.md, which records what changesets said). */
function* markdownFiles(root) {
  const readme = (name) => name === 'README.md';
  const markdown = (name) => readme(name) || (name.endsWith('.md') && name !== 'CHANGELOG.md');
  yield join(root, 'README.md');
  yield* filesUnder(join(root, 'docs'), markdown);
  yield* filesUnder(join(root, 'bench'), markdown);
  for (const group of SOURCE_GROUPS)
    if (group !== 'bench') yield* filesUnder(join(root, group), readme);
}

/** Every violation under `root`, as human-readable lines naming the file and line. */
export function checkDesignCitations(root) {
  const defined = designRequirements(root);
  const violations = [];
  for (const group of SOURCE_GROUPS) {
    for (const file of filesUnder(join(root, group), isSource)) {
      const where = relative(root, file).split(sep).join('/');
      const text = readFileSync(file, 'utf8');
      const comments = commentsOf(text, /\.(tsx|jsx)$/.test(file));
      if (!SELF.includes(where)) {
        for (const comment of comments) {
          const found = issueCitations(comment.text, { hash: comment.comment });
          for (const { citation, offset } of found) {
            const line = comment.line + comment.text.slice(0, offset).split('\n').length - 1;
            violations.push(`${where}:${line}: cites ${citation} (say in words what it means)`);
          }
        }
      }
      if (group !== 'packages' && group !== 'apps') continue;
      for (const comment of comments) {
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
  for (const file of markdownFiles(root)) {
    let text;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const where = relative(root, file).split(sep).join('/');
    text.split('\n').forEach((line, index) => {
      for (const { citation } of issueCitations(line, { markdown: true })) {
        violations.push(`${where}:${index + 1}: cites ${citation} (say in words what it means)`);
      }
    });
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
