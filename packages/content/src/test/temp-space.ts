import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';

/** A fresh temp folder holding `files` (relative path → text or bytes). */
export async function tempSpace(files: Record<string, string | Uint8Array> = {}): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'repa-content-'));
  await writeFiles(root, files);
  return root;
}

/**
 * A test file's temp spaces: the function it returns makes one holding `files` (as
 * {@link tempSpace}), and each is removed after the test that made it.
 */
export function tempSpaces(): (files?: Record<string, string | Uint8Array>) => Promise<string> {
  const dirs: string[] = [];
  afterEach(() => removeAll(dirs));
  return async (files = {}) => {
    const root = await tempSpace(files);
    dirs.push(root);
    return root;
  };
}

/** Writes `files` under `root`, creating folders. */
export async function writeFiles(
  root: string,
  files: Record<string, string | Uint8Array>,
): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

/** Every file under `root` (relative path → bytes), `.repa/` excluded unless asked for. */
export async function readTree(
  root: string,
  options: { withRepa?: boolean } = {},
): Promise<Record<string, Buffer>> {
  const tree: Record<string, Buffer> = {};
  const walk = async (dir: string, prefix: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (path === '.repa' && !options.withRepa) continue;
      if (entry.isDirectory()) await walk(join(dir, entry.name), path);
      else tree[path] = await readFile(join(dir, entry.name));
    }
  };
  await walk(root, '');
  return tree;
}

/** The same tree as text, for readable assertions. */
export async function readTextTree(
  root: string,
  options: { withRepa?: boolean } = {},
): Promise<Record<string, string>> {
  const tree = await readTree(root, options);
  return Object.fromEntries(
    Object.entries(tree).map(([path, bytes]) => [path, bytes.toString('utf8')]),
  );
}

/** Removes temp folders created by a test. */
export async function removeAll(paths: string[]): Promise<void> {
  await Promise.all(paths.splice(0).map((path) => rm(path, { recursive: true, force: true })));
}
