import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A workspace under a fresh temp dir holding `files` (relative path → text). */
export function workspace(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'repa-layers-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** A package.json of `name` with its `dependencies`. */
export const manifest = (name: string, dependencies: Record<string, string> = {}) =>
  JSON.stringify({ name, dependencies });
