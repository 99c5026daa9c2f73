/** One chosen line of a passage and its citation. */
export interface CitedLine {
  line: string;
  citation: string;
}

/** The first words of a line: all a tutor's hint quotes of the passage, not its answer. */
export function openingOf(line: string): string {
  return line.split(/\s+/).slice(0, 3).join(' ');
}

/**
 * The offline responder's reply in tutor mode (`study.mode` `tutor`): a question back and a hint
 * naming the passage to reread, with its citation (quoting only its opening), instead of the answer.
 */
export function tutorHint(path: string, at: string, chosen: readonly CitedLine[]): string {
  const first = chosen[0];
  if (first === undefined) return `${path} is empty: what do you already know about it?`;
  return (
    'Before I answer: what do you think, and why? ' +
    `Hint: reread the passage of ${path}${at} that begins "${openingOf(first.line)}…" ${first.citation}. ` +
    'Tell me your answer in your own words and I will check your reasoning against it.'
  );
}
