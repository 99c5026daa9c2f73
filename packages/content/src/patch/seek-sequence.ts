/** Typographic punctuation and spaces folded to ASCII for the most lenient matching pass. */
const FOLD: Record<string, string> = {};
for (const char of '\u2010\u2011\u2012\u2013\u2014\u2015\u2212') FOLD[char] = '-';
for (const char of '\u2018\u2019\u201A\u201B') FOLD[char] = "'";
for (const char of '\u201C\u201D\u201E\u201F') FOLD[char] = '"';
for (const char of '\u00A0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u202F\u205F\u3000') {
  FOLD[char] = ' ';
}

function fold(line: string): string {
  let folded = '';
  for (const char of line.trim()) folded += FOLD[char] ?? char;
  return folded;
}

const PASSES: ((line: string) => string)[] = [
  (line) => line,
  (line) => line.trimEnd(),
  (line) => line.trim(),
  fold,
];

/**
 * Where `pattern` occurs in `lines` at or after `start`, trying ever more lenient comparisons:
 * exact, ignoring trailing whitespace, ignoring surrounding whitespace, then also folding
 * typographic dashes, quotes and spaces to ASCII (Codex's `seek_sequence` semantics).
 * With `endOfFile`, only a match ending at the last line counts. An empty pattern matches at `start`.
 */
export function seekSequence(
  lines: readonly string[],
  pattern: readonly string[],
  start: number,
  endOfFile: boolean,
): number | undefined {
  if (pattern.length === 0) return start;
  if (pattern.length > lines.length) return undefined;
  const last = lines.length - pattern.length;
  const from = endOfFile ? last : start;
  for (const normalise of PASSES) {
    const wanted = pattern.map(normalise);
    for (let index = from; index <= last; index++) {
      if (wanted.every((line, offset) => normalise(lines[index + offset] as string) === line))
        return index;
    }
  }
  return undefined;
}
