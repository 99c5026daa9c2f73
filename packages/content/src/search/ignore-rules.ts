import { RE2JS } from 're2js';
import { globSource } from './search-patterns.js';

/** The largest `.gitignore` applied (bytes); a larger one is not applied and is named. */
export const MAX_IGNORE_FILE_BYTES = 256 * 1024;
/** The most rules one `.gitignore` may hold to be applied. */
export const MAX_IGNORE_RULES = 1000;
/** Rules compiled into one RE2 program at most. */
const RULES_PER_PROGRAM = 16;

/** Consecutive rules of one `.gitignore` with the same effect, as RE2 programs. */
interface RuleGroup {
  /** `!rule`: a match includes the path again. */
  negated: boolean;
  /** `rule/`: matches folders only. */
  folderOnly: boolean;
  programs: RE2JS[];
}

/** The rules of one `.gitignore`, matched in linear time (RE2). */
export interface IgnoreRules {
  /** The folder the `.gitignore` sits in, relative to the space root (`''` for the root). */
  base: string;
  groups: RuleGroup[];
}

interface Rule {
  negated: boolean;
  folderOnly: boolean;
  source: string;
}

/** One line of a `.gitignore` as git reads it, or `undefined` for a blank line or a comment. */
function parseLine(raw: string): Rule | undefined {
  let line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (line === '' || line.startsWith('#')) return undefined;
  // Trailing spaces go unless escaped with a backslash.
  let end = line.length;
  while (end > 0 && line[end - 1] === ' ' && line[end - 2] !== '\\') end--;
  line = line.slice(0, end);
  const negated = line.startsWith('!');
  if (negated) line = line.slice(1);
  const folderOnly = line.endsWith('/');
  if (folderOnly) line = line.slice(0, -1);
  if (line === '') return undefined;
  // A `/` at the start or in the middle anchors the rule at the `.gitignore`'s folder; otherwise
  // it matches a name at any depth below it.
  const anchored = line.includes('/');
  if (line.startsWith('/')) line = line.slice(1);
  const glob = globSource(line, { braces: false, insideOnly: true });
  return { negated, folderOnly, source: anchored ? glob : `(?:.*/)?(?:${glob})` };
}

/**
 * Compiles the text of one `.gitignore` (git's syntax: `#` comments, `!` negation, a trailing `/`
 * for folders, anchoring by a `/`, `*`, `?`, `**`, `[…]`; matched case-insensitively, as before),
 * at most {@link RULES_PER_PROGRAM} rules per RE2 program (it runs in the search worker, off the
 * event loop). Returns why it is not applied when it holds more than
 * {@link MAX_IGNORE_RULES} rules or a rule that does not compile.
 */
export function compileIgnoreRules(text: string, base: string): IgnoreRules | { problem: string } {
  const rules: Rule[] = [];
  for (const line of text.split('\n')) {
    const rule = parseLine(line);
    if (rule === undefined) continue;
    if (rules.length === MAX_IGNORE_RULES) {
      return { problem: `more than ${MAX_IGNORE_RULES} rules` };
    }
    rules.push(rule);
  }
  const groups: RuleGroup[] = [];
  try {
    for (let from = 0; from < rules.length; ) {
      const { negated, folderOnly } = rules[from] as Rule;
      let to = from + 1;
      while (
        to < rules.length &&
        to - from < RULES_PER_PROGRAM &&
        rules[to]?.negated === negated &&
        rules[to]?.folderOnly === folderOnly
      )
        to++;
      const program = RE2JS.compile(
        rules
          .slice(from, to)
          .map((rule) => rule.source)
          .join('|'),
        RE2JS.DOTALL | RE2JS.CASE_INSENSITIVE,
      );
      const last = groups.at(-1);
      if (last?.negated === negated && last.folderOnly === folderOnly) last.programs.push(program);
      else groups.push({ negated, folderOnly, programs: [program] });
      from = to;
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { problem: `a rule does not compile (${reason})` };
  }
  return { base, groups };
}

/**
 * Whether the rules of the `.gitignore` files that apply (outermost first) leave out `path`
 * (relative to the space root): the deepest file with a matching rule decides, and within a file
 * the last matching rule (a negated one includes the path again), as git does.
 */
export function ignoredBy(rules: readonly IgnoreRules[], path: string, folder: boolean): boolean {
  for (let index = rules.length - 1; index >= 0; index--) {
    const { base, groups } = rules[index] as IgnoreRules;
    const relative = base === '' ? path : path.slice(base.length + 1);
    for (let group = groups.length - 1; group >= 0; group--) {
      const { negated, folderOnly, programs } = groups[group] as RuleGroup;
      if (folderOnly && !folder) continue;
      if (programs.some((program) => program.testExact(relative))) return !negated;
    }
  }
  return false;
}
