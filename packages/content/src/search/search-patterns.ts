import { RepaError } from '@repa/protocol';
import picomatch from 'picomatch';
import { RE2JS } from 're2js';

/** Matches a path relative to the folder searched (`/`-separated). */
export type PathMatcher = (path: string) => boolean;

/**
 * A glob as `find` and `grep` use it (as fd and ripgrep do): without `/` it matches a file's name at
 * any depth, with `/` a path (the caller tries it below the folder searched and from the space
 * root; at any depth unless it starts with `**`). Dotfiles match. A glob that would leave the space (`..`, an absolute path) is
 * `path_outside_space`.
 */
export function compileGlob(pattern: string, parameter: string): PathMatcher {
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
  const options = { dot: true };
  if (!pattern.includes('/')) {
    const byName = picomatch(pattern, options);
    return (path) => byName(path.slice(path.lastIndexOf('/') + 1));
  }
  const anchored = picomatch(pattern, options);
  const anywhere = pattern.startsWith('**') ? anchored : picomatch(`**/${pattern}`, options);
  return (path) => anchored(path) || anywhere(path);
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
