/**
 * `text` in one line for reading: its first non-empty line, cut to `width` characters, and its
 * size (`# Tides  (4 lines, 41 characters)`); how a tool result is shown folded.
 */
export function foldedText(text: string, width = 80): string {
  const lines = text.split('\n');
  const first = (lines.find((line) => line.trim() !== '') ?? '').trim();
  const shown = first.length > width ? `${first.slice(0, width - 1)}…` : first;
  const size = `${lines.length} line${lines.length === 1 ? '' : 's'}, ${text.length} characters`;
  return `${shown}${shown === '' ? '' : '  '}(${size})`;
}
