import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The feature folders of `src/`, from the ground floor up: a folder's code may import only the
 * folders before it, and only through their `index.ts`. The README's "Files" section describes each.
 */
const FOLDERS = [
  'files',
  'space',
  'identity',
  'history',
  'save',
  'store',
  'documents',
  'materials',
  'observer',
  'citations',
  'rewind',
  'search',
  'study',
  'patch',
  'study',
  'tools',
  'bash',
];

const src = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The folder of `file` under `src/` (`''` for `src/` itself). */
const folderOf = (file: string) => {
  const parts = relative(src, file).split(sep);
  return parts.length === 1 ? '' : (parts[0] as string);
};

const isTest = (file: string) => file.endsWith('.test.ts') || folderOf(file) === 'test';

/** Each relative import of `file`, as the file it names. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((imported) => imported.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(file), name.replace(/\.js$/u, '.ts')));
}

/** What is wrong with `file` importing `target`, or `undefined`. */
function wrongImport(file: string, target: string): string | undefined {
  const from = folderOf(file);
  const to = folderOf(target);
  if (from === to) return undefined;
  if (to === 'test') return isTest(file) ? undefined : 'a test helper in product code';
  if (to === '' || target !== join(src, to, 'index.ts')) return 'past the folder index';
  if (isTest(file) || from === '') return undefined;
  return FOLDERS.indexOf(to) < FOLDERS.indexOf(from)
    ? undefined
    : 'a folder on the same floor or above';
}

describe('the folders of src/', () => {
  const files = sourceFiles(src);

  it('are the feature folders and test/, each feature folder with an index.ts', () => {
    const folders = new Set(files.map(folderOf));
    expect([...folders].sort()).toEqual(['', ...FOLDERS, 'test'].sort());
    for (const folder of FOLDERS) expect(files).toContain(join(src, folder, 'index.ts'));
  });

  it('import each other only downward and only through index.ts', () => {
    const wrong = files.flatMap((file) =>
      importsOf(file).flatMap((target) => {
        const why = wrongImport(file, target);
        return why === undefined
          ? []
          : [`${relative(src, file)} -> ${relative(src, target)}: ${why}`];
      }),
    );
    expect(wrong).toEqual([]);
  });

  it('have indexes that only hand on their own files', () => {
    for (const folder of FOLDERS) {
      const index = join(src, folder, 'index.ts');
      expect(importsOf(index).map(folderOf), folder).toEqual(importsOf(index).map(() => folder));
    }
  });
});
