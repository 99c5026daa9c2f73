import { diffArrays } from 'diff';

interface Line {
  body: string;
  eol: string;
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  const pattern = /([^\r\n]*)(\r\n|\n|\r|$)/gu;
  for (const match of text.matchAll(pattern)) {
    const [, body = '', eol = ''] = match;
    if (body === '' && eol === '') break;
    lines.push({ body, eol });
  }
  return lines;
}

/** The first line ending of a text (`\n` when it has none), as Pi's edit tool detects it. */
function firstEnding(text: string): string {
  const lf = text.indexOf('\n');
  const crlf = text.indexOf('\r\n');
  return lf !== -1 && crlf !== -1 && crlf < lf ? '\r\n' : '\n';
}

/**
 * Pi's edit tool rewrites every line ending of a file to the first one it finds (and turns lone
 * `\r` into line breaks). For files that mix endings this changes lines the edit did not touch.
 * Given the original text and Pi's edited text, this puts back the original ending of every line
 * whose content the edit left unchanged; edited lines keep Pi's ending, except in a file whose only
 * endings are lone `\r` (old Mac text), where they end in `\r` too. A BOM stays as Pi left it.
 */
export function restoreLineEndings(original: string, edited: string): string {
  const bom = original.startsWith('\uFEFF') ? '\uFEFF' : '';
  const text = original.slice(bom.length);
  const ending = firstEnding(text);
  const normalised = text.replace(/\r\n|\r/gu, '\n');
  // Pi's round trip is exact for this file: nothing to restore.
  if ((ending === '\r\n' ? normalised.replace(/\n/gu, '\r\n') : normalised) === text) return edited;

  // Pi's ending for new lines is `\n`; a file without one has lone `\r` throughout.
  const loneCr = !text.includes('\n');
  const editedBom = edited.startsWith('\uFEFF') ? '\uFEFF' : '';
  const before = splitLines(text);
  const after = splitLines(edited.slice(editedBom.length));
  let oldIndex = 0;
  let newIndex = 0;
  const emitted: Line[] = [];
  for (const part of diffArrays(
    before.map((line) => line.body),
    after.map((line) => line.body),
  )) {
    const count = part.count ?? part.value.length;
    if (part.removed) {
      oldIndex += count;
    } else if (part.added) {
      for (let k = 0; k < count; k++) emitted.push(after[newIndex + k] as Line);
      newIndex += count;
    } else {
      for (let k = 0; k < count; k++) {
        const kept = before[oldIndex + k] as Line;
        const now = after[newIndex + k] as Line;
        // An unchanged line keeps its own ending, except that a line gaining or losing the last
        // position follows the edited text (so no line is glued to the next one).
        emitted.push({
          body: kept.body,
          eol: kept.eol === '' || now.eol === '' ? now.eol : kept.eol,
        });
      }
      oldIndex += count;
      newIndex += count;
    }
  }
  const own = (eol: string) => (loneCr && eol === '\n' ? '\r' : eol);
  return editedBom + emitted.map((line) => line.body + own(line.eol)).join('');
}
