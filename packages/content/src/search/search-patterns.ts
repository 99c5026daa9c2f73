import { RepaError } from '@repa/protocol';
import { RE2JS } from 're2js';

/** Matches a path relative to the folder searched (`/`-separated). */
export type PathMatcher = (path: string) => boolean;

/** The longest glob accepted: matching costs time in proportion to the glob times the path. */
export const MAX_GLOB_CHARS = 1000;

const POSIX_CLASS =
  /^\[:(?:alnum|alpha|ascii|blank|cntrl|digit|graph|lower|print|punct|space|upper|word|xdigit):\]/u;

/** A character outside a class, as RE2 reads it literally. */
const literal = (char: string) => (/[\\^$.|?*+()[\]{}]/u.test(char) ? `\\${char}` : char);

/** A character inside a class, as RE2 reads it literally (letters and digits never escaped). */
const classLiteral = (char: string) => (/[\\^\-[\]]/u.test(char) ? `\\${char}` : char);

/** Where the bracket expression opening at `open` closes, or -1 when it does not (a literal `[`). */
function classEnd(glob: string, open: number): number {
  let index = open + 1;
  if (glob[index] === '!' || glob[index] === '^') index++;
  if (glob[index] === ']') index++;
  while (index < glob.length) {
    const char = glob[index];
    if (char === ']') return index;
    if (char === '\\') index += 2;
    else if (char === '[' && POSIX_CLASS.test(glob.slice(index)))
      index = glob.indexOf(':]', index + 2) + 2;
    else index++;
  }
  return -1;
}

/** A bracket expression (`[ab]`, `[!a-z]`, `[[:digit:]]`) as an RE2 class; negated ones never match `/`. */
function classSource(body: string): string {
  let index = 0;
  let out = '[';
  if (body[0] === '!' || body[0] === '^') {
    out += '^/';
    index++;
  }
  for (let first = true; index < body.length; first = false) {
    const char = body[index] as string;
    const posix = char === '[' ? POSIX_CLASS.exec(body.slice(index))?.[0] : undefined;
    if (posix !== undefined) {
      out += posix;
      index += posix.length;
    } else if (char === '\\' && index + 1 < body.length) {
      out += classLiteral(body[index + 1] as string);
      index += 2;
    } else if (char === '-' && !first && index + 1 < body.length) {
      out += '-';
      index++;
    } else {
      out += classLiteral(char);
      index++;
    }
  }
  return `${out}]`;
}

/**
 * The braces of `glob` that form alternations: `{` index → its `}`, for each pair holding a comma
 * at its own level. Any other brace is a literal character (as fd and picomatch read `{a}`).
 */
function alternations(glob: string): Map<number, number> {
  const open: { at: number; comma: boolean }[] = [];
  const pairs = new Map<number, number>();
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index];
    if (char === '\\') index++;
    else if (char === '[') {
      const end = classEnd(glob, index);
      if (end > 0) index = end;
    } else if (char === '{') open.push({ at: index, comma: false });
    else if (char === ',' && open.length > 0) (open.at(-1) as { comma: boolean }).comma = true;
    else if (char === '}') {
      const pair = open.pop();
      if (pair?.comma) pairs.set(pair.at, index);
    }
  }
  return pairs;
}

/**
 * A glob as an RE2 source matching a whole `/`-separated path: `*` and `?` within one part, `**`
 * as a whole part across parts (a trailing `/**` also matches the folder itself unless
 * `insideOnly`), `[…]` and `[!…]` classes, `{a,b}` alternations (nested; literal without
 * `braces`), `\` escaping the next character; everything else literal (as fd's glob syntax: no
 * extglobs or `{1..3}` ranges). The source grows linearly with the glob: nothing is expanded.
 */
export function globSource(
  glob: string,
  options: { braces?: boolean; insideOnly?: boolean } = {},
): string {
  const pairs = options.braces === false ? new Map<number, number>() : alternations(glob);
  const closers = new Set(pairs.values());
  /** The `}` of each open alternation, innermost last. */
  const open: number[] = [];
  let out = '';
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index] as string;
    const partStart =
      index === 0 || glob[index - 1] === '/' || glob[index - 1] === '{' || glob[index - 1] === ',';
    if (char === '\\') {
      out += index + 1 < glob.length ? literal(glob[++index] as string) : '\\\\';
    } else if (char === '*') {
      let end = index;
      while (glob[end + 1] === '*') end++;
      const next = glob[end + 1];
      const wholePart = end > index && partStart && (next === undefined || next === '/');
      if (wholePart && next === '/') {
        out += '(?:.*/)?';
        end++;
      } else if (wholePart) out += '.*';
      else out += '[^/]*';
      index = end;
    } else if (char === '?') out += '[^/]';
    else if (char === '/' && /^\/\*\*+$/u.test(glob.slice(index))) {
      out += options.insideOnly ? '/.*' : '(?:/.*)?';
      break;
    } else if (char === '[' && classEnd(glob, index) > 0) {
      const end = classEnd(glob, index);
      out += classSource(glob.slice(index + 1, end));
      index = end;
    } else if (char === '{' && pairs.has(index)) {
      open.push(pairs.get(index) as number);
      out += '(?:';
    } else if (char === ',' && open.length > 0) out += '|';
    else if (char === '}' && open.at(-1) === index && closers.has(index)) {
      open.pop();
      out += ')';
    } else out += literal(char);
  }
  return out;
}

/**
 * Why `glob` is malformed as fd's and ripgrep's glob parser (globset) refuses it: a `[` never
 * closed, a `{` never closed or a `}` never opened, a `\\` with nothing after it; else undefined.
 */
function malformation(glob: string): string | undefined {
  let depth = 0;
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index];
    if (char === '\\') {
      if (index + 1 === glob.length) return "it ends with '\\', which escapes nothing";
      index++;
    } else if (char === '[') {
      const end = classEnd(glob, index);
      if (end < 0) return `the '[' at character ${index + 1} is never closed with ']'`;
      index = end;
    } else if (char === '{') depth++;
    else if (char === '}') {
      if (depth === 0) return `the '}' at character ${index + 1} closes no '{'`;
      depth--;
    }
  }
  return depth > 0 ? "a '{' is never closed with '}'" : undefined;
}

/**
 * A glob as `find` and `grep` use it (as fd and ripgrep do): without `/` it matches a file's name at
 * any depth, with `/` a path (the caller tries it below the folder searched and from the space
 * root; at any depth unless it starts with `**`). Dotfiles match. A leading `!` negates it.
 * With `smartCase` (fd's default, for `find`) a glob without capital letters ignores case.
 * Matching is RE2's (re2js), linear in the path, so no glob can backtrack catastrophically
 * (spec R74). A glob that would leave the space (`..`, an absolute path) is `path_outside_space`;
 * one longer than {@link MAX_GLOB_CHARS}, malformed (an unclosed `[` or `{`) or that does not
 * compile is `invalid_request`.
 */
export function compileGlob(
  pattern: string,
  parameter: string,
  options: { smartCase?: boolean } = {},
): PathMatcher {
  const parts = pattern.split(/[/\\]/u);
  if (/^([/\\]|[A-Za-z]:|~)/u.test(pattern) || parts.includes('..')) {
    throw new RepaError(
      'path_outside_space',
      `The ${parameter} ${JSON.stringify(pattern)} reaches outside the space.`,
      { fix: 'Use a glob relative to the folder searched, without ".." or an absolute path.' },
    );
  }
  if (pattern.trim() === '') {
    throw new RepaError('invalid_request', `The ${parameter} is empty.`, {
      fix: "Give a glob such as '*.md' or 'notes/**/*.txt'.",
    });
  }
  if (pattern.length > MAX_GLOB_CHARS) {
    throw new RepaError(
      'invalid_request',
      `The ${parameter} is ${pattern.length} characters long, over the limit of ${MAX_GLOB_CHARS}.`,
      { fix: 'Use a shorter glob, or search with several calls.' },
    );
  }
  const negated = pattern.startsWith('!') && pattern.length > 1;
  const glob = negated ? pattern.slice(1) : pattern;
  const byName = !glob.includes('/');
  // A path glob matches at any depth: from the start, or after any folder.
  const anywhere = byName || glob.startsWith('**') ? '' : '(?:.*/)?';
  const caseless = options.smartCase === true && glob === glob.toLowerCase();
  let compiled: RE2JS;
  try {
    const malformed = malformation(glob);
    if (malformed !== undefined) throw new Error(malformed);
    compiled = RE2JS.compile(
      `${anywhere}(?:${globSource(glob)})`,
      RE2JS.DOTALL | (caseless ? RE2JS.CASE_INSENSITIVE : 0),
    );
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new RepaError(
      'invalid_request',
      `The ${parameter} ${JSON.stringify(pattern)} is not a valid glob: ${reason}.`,
      { fix: "Fix the glob: '*', '?', '**', '[a-z]', '{a,b}', and '\\' before a literal one." },
    );
  }
  const matches = byName
    ? (path: string) => compiled.testExact(path.slice(path.lastIndexOf('/') + 1))
    : (path: string) => compiled.testExact(path);
  return negated ? (path) => !matches(path) : matches;
}

/** A compiled `grep` pattern: tests text in linear time (RE2 semantics, as ripgrep). */
export interface LinePattern {
  /** Whether `text` holds a match. */
  test(text: string): boolean;
}

/**
 * Compiles a `grep` pattern with RE2 (re2js): matching takes time linear in the text, so no
 * pattern can backtrack catastrophically. A pattern that does not compile is `invalid_request`
 * naming it (RE2 syntax, like ripgrep's: no look-around or backreferences).
 */
export function compileLinePattern(
  pattern: string,
  options: { literal?: boolean | undefined; ignoreCase?: boolean | undefined },
): LinePattern {
  const source = options.literal ? RE2JS.quote(pattern) : pattern;
  const flags = (options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0) | RE2JS.MULTILINE;
  try {
    return RE2JS.compile(source, flags);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new RepaError(
      'invalid_request',
      `The pattern ${JSON.stringify(pattern)} is not a valid regular expression: ${reason}.`,
      {
        fix: 'Fix the pattern (RE2 syntax, as ripgrep: no look-around or backreferences), or pass literal: true to search for the text itself.',
      },
    );
  }
}
