import type { z } from 'zod';

/** Zod's own messages (a schema's author writes its own in words and is quoted as written). */
const ZOD_WORDING = /^(Invalid|Too (small|big)|Unrecognized key)/;

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  map: 'an object',
  array: 'a list',
  tuple: 'a list',
  set: 'a list',
  null: 'null',
};

/** A value as the learner typed it, short: `nope`, `12`, `null`. */
function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `\`${text.length > 40 ? `${text.slice(0, 39)}…` : text}\``;
}

/** What a value is, in words: `text`, `a number`, `a list`. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'number' && !Number.isInteger(value)) return 'a fraction';
  return TYPE_WORDS[typeof value] ?? typeof value;
}

/** `a`, `a or b`, `a, b or c`. */
function either(words: readonly string[]): string {
  return words.length < 2
    ? (words[0] ?? '')
    : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/** The value at `path` inside `root`, if there is one. */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const part of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}

/**
 * The name of the field at `path` for people: its dotted path, but a `value` beside a `key` text
 * (a setting) is named by that key, e.g. `tools.bash` rather than `value`.
 */
function fieldName(root: unknown, path: readonly PropertyKey[]): string {
  const last = path.at(-1);
  const key = valueAt(root, [...path.slice(0, -1), 'key']);
  if (last === 'value' && typeof key === 'string') return `\`${key}\``;
  return `\`${path.map(String).join('.')}\``;
}

function sizeWords(issue: z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall): string {
  const small = issue.code === 'too_small';
  const bound = Number(small ? issue.minimum : issue.maximum);
  const unit =
    issue.origin === 'string'
      ? ` character${bound === 1 ? '' : 's'}`
      : issue.origin === 'array' || issue.origin === 'set'
        ? ` item${bound === 1 ? '' : 's'}`
        : '';
  if (small && bound === 1 && unit !== '' && issue.inclusive !== false) return 'must not be empty';
  if (issue.inclusive === false) return `must be ${small ? 'more' : 'less'} than ${bound}${unit}`;
  return `must be at ${small ? 'least' : 'most'} ${bound}${unit}`;
}

/** What `issue` asks of the value, in words: `must be one of \`off\` or \`sandboxed\``. */
function demand(issue: z.core.$ZodIssue, value: unknown): string | undefined {
  switch (issue.code) {
    case 'invalid_value':
      return `must be ${issue.values.length > 1 ? 'one of ' : ''}${either(issue.values.map(shown))}`;
    case 'invalid_type':
      return `must be ${TYPE_WORDS[issue.expected] ?? issue.expected}`;
    case 'too_small':
    case 'too_big':
      return sizeWords(issue);
    case 'invalid_format':
      return `must be ${issue.format === 'regex' ? 'in the expected form' : `a valid ${issue.format}`}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'invalid_union': {
      // Each branch wanted a type: name them all (`text or null`); else the first branch's demand.
      const firsts = issue.errors.map((branch) => branch[0]);
      if (firsts.every((first) => first?.code === 'invalid_type')) {
        const types = firsts.map((first) => TYPE_WORDS[first?.expected ?? ''] ?? first?.expected);
        return `must be ${either([...new Set(types)].filter((type) => type !== undefined))}`;
      }
      const first = firsts.find((one) => one !== undefined);
      return first === undefined ? undefined : demand(first, value);
    }
    default:
      return undefined;
  }
}

/**
 * One zod issue as a sentence for people, naming the field as they know it: `` `tools.bash` must
 * be one of `off` or `sandboxed`, not `nope` ``. `root` is the value that was checked.
 */
export function issueWords(issue: z.core.$ZodIssue, root: unknown): string {
  const name = fieldName(root, issue.path);
  const where = issue.path.length === 0 ? '' : `${name}: `;
  if (issue.code === 'unrecognized_keys') {
    const keys = either(issue.keys.map((key) => `\`${key}\``));
    const owner = issue.path.length === 0 ? 'The request' : name;
    return `${owner} has no field ${keys}`;
  }
  if (!ZOD_WORDING.test(issue.message)) return `${where}${issue.message}`;
  const value = valueAt(root, issue.path);
  const wanted = demand(issue, value);
  if (wanted === undefined) return `${name} is not valid`;
  const subject = issue.path.length === 0 ? 'The value' : name;
  if (value === undefined) return `${subject} is missing: it ${wanted}`;
  const given =
    issue.code === 'invalid_type' || issue.code === 'invalid_union'
      ? `, not ${kindOf(value)}`
      : issue.code === 'invalid_value' ||
          issue.code === 'invalid_format' ||
          typeof value === 'number'
        ? `, not ${shown(value)}`
        : '';
  return `${subject} ${wanted}${given}`;
}
