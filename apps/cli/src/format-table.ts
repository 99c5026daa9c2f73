/** Rows as aligned text columns under upper-case headers; the last column is not padded. */
export function formatTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) =>
        column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd();
  return `${[line(headers.map((header) => header.toUpperCase())), ...rows.map(line)].join('\n')}\n`;
}

/** Writes `value` as pretty JSON with a final newline. */
export function writeJson(out: NodeJS.WritableStream, value: unknown): void {
  out.write(`${JSON.stringify(value, null, 2)}\n`);
}
