#!/usr/bin/env node
// Prints the text of a PDF (or a Word document, EPUB or saved web page) with @repa/documents alone:
//   node examples/pdf-text.mjs lecture.pdf         the whole text, a marker line before each page
//   node examples/pdf-text.mjs lecture.pdf 3-5     pages 3 to 5 only
// Build the package first (`npx turbo run build --filter=@repa/documents`).
import { readFile } from 'node:fs/promises';
import { contentKindOf, readDocument, selectParts } from '@repa/documents';

const [path, pages] = process.argv.slice(2);
if (path === undefined) {
  console.error('Usage: node examples/pdf-text.mjs FILE [PAGES]');
  process.exit(2);
}
const bytes = await readFile(path);
const kind = contentKindOf(bytes, path);
if (kind.kind !== 'document') {
  const what = kind.kind === 'text' ? 'plain text already' : kind.type;
  console.error(`${path} is ${what}, not a document to extract.`);
  process.exit(1);
}
try {
  // Extracted in a child process, within the default bounds (time, memory, pages, text).
  const document = await readDocument(kind.format, bytes, { shown: JSON.stringify(path) });
  const text = pages === undefined ? document.text : selectParts(document, pages).text;
  process.stdout.write(`${text}\n`);
} catch (error) {
  // A RepaError: its code, what went wrong and what to do about it.
  console.error(`${error.code}: ${error.message}${error.fix ? `\n${error.fix}` : ''}`);
  process.exitCode = 1;
}
