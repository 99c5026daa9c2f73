import { RepaError } from '@repa/protocol';
import type { UpdateChunk } from './parse-patch.js';
import { seekSequence } from './seek-sequence.js';

interface Line {
  text: string;
  /** The line's own ending: `\n`, `\r\n`, or `''` for a last line without one. */
  eol: string;
}

/** A chunk line with the roles it plays: matched against the file (`old`), written (`new`). */
interface Step {
  text: string;
  old: boolean;
  new: boolean;
}

interface Replacement {
  start: number;
  length: number;
  steps: Step[];
}

function splitLines(body: string): Line[] {
  if (body === '') return [];
  const parts = body.split('\n');
  const lines: Line[] = [];
  parts.forEach((part, index) => {
    if (index === parts.length - 1) {
      if (part !== '') lines.push({ text: part, eol: '' });
    } else if (part.endsWith('\r')) {
      lines.push({ text: part.slice(0, -1), eol: '\r\n' });
    } else {
      lines.push({ text: part, eol: '\n' });
    }
  });
  return lines;
}

function conflict(message: string): RepaError {
  return new RepaError('patch_conflict', message);
}

function findReplacements(
  lines: readonly Line[],
  chunks: readonly UpdateChunk[],
  path: string,
): Replacement[] {
  const texts = lines.map((line) => line.text);
  const replacements: Replacement[] = [];
  let cursor = 0;
  for (const chunk of chunks) {
    if (chunk.context !== undefined) {
      const found = seekSequence(texts, [chunk.context], cursor, false);
      if (found === undefined)
        throw conflict(`Failed to find context '${chunk.context}' in ${path}`);
      cursor = found + 1;
    }
    let steps: Step[] = chunk.lines.map((line) => ({
      text: line.text,
      old: line.kind !== '+',
      new: line.kind !== '-',
    }));
    const oldOf = (list: Step[]) => list.filter((step) => step.old).map((step) => step.text);
    if (oldOf(steps).length === 0) {
      // A pure addition goes at the end of the file (before a final empty line, if any).
      const at = texts[texts.length - 1] === '' ? texts.length - 1 : texts.length;
      replacements.push({ start: at, length: 0, steps });
      continue;
    }
    let found = seekSequence(texts, oldOf(steps), cursor, chunk.endOfFile);
    if (found === undefined && oldOf(steps).at(-1) === '') {
      // The last empty old line may stand for the file's final newline: retry without it (and
      // without a trailing empty new line).
      steps = steps.map((step) => ({ ...step }));
      const lastOld = steps.findLastIndex((step) => step.old);
      const lastNew = steps.findLastIndex((step) => step.new);
      (steps[lastOld] as Step).old = false;
      if (lastNew >= 0 && (steps[lastNew] as Step).text === '')
        (steps[lastNew] as Step).new = false;
      steps = steps.filter((step) => step.old || step.new);
      found = seekSequence(texts, oldOf(steps), cursor, chunk.endOfFile);
    }
    if (found === undefined) {
      throw conflict(
        `Failed to find expected lines in ${path}:\n${chunk.lines
          .filter((line) => line.kind !== '+')
          .map((line) => line.text)
          .join('\n')}`,
      );
    }
    const length = oldOf(steps).length;
    replacements.push({ start: found, length, steps });
    cursor = found + length;
  }
  // Stable: replacements at the same place keep the patch's order.
  return replacements
    .map((replacement, order) => ({ replacement, order }))
    .sort((a, b) => a.replacement.start - b.replacement.start || a.order - b.order)
    .map(({ replacement }) => replacement);
}

/**
 * The text of a file after applying an update's chunks (Codex's matching semantics), preserving
 * what the patch does not change: a BOM, each kept line's own bytes and line ending (kept lines
 * come from the file even when they matched only leniently), and a missing final newline.
 * New lines take the file's dominant line ending. Throws `patch_conflict` when a chunk does not match.
 */
export function applyUpdateChunks(
  original: string,
  chunks: readonly UpdateChunk[],
  path: string,
): string {
  const bom = original.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = original.slice(bom.length);
  const lines = splitLines(body);
  const endsWithNewline = body === '' || body.endsWith('\n');
  const crlf = lines.filter((line) => line.eol === '\r\n').length;
  const lf = lines.filter((line) => line.eol === '\n').length;
  const newline = crlf > lf ? '\r\n' : '\n';

  const output: Line[] = [];
  // Kept runs are copied line by line: spreading a long file's lines into one call passes the
  // engine's argument limit (RangeError: Maximum call stack size exceeded).
  const keep = (from: number, to: number) => {
    for (let index = from; index < to; index++) output.push(lines[index] as Line);
  };
  let next = 0;
  for (const { start, length, steps } of findReplacements(lines, chunks, path)) {
    if (start < next) throw conflict(`Two chunks of the patch for ${path} overlap.`);
    keep(next, start);
    let offset = 0;
    for (const step of steps) {
      if (step.old && step.new) output.push(lines[start + offset] as Line);
      else if (step.new) output.push({ text: step.text, eol: newline });
      if (step.old) offset++;
    }
    next = start + length;
  }
  keep(next, lines.length);

  return (
    bom +
    output
      .map((line, index) => {
        if (index < output.length - 1) return line.text + (line.eol || newline);
        return line.text + (endsWithNewline ? line.eol || newline : '');
      })
      .join('')
  );
}
