import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'vitest';

/** The workspace's Node 22 (`node_modules/.bin/node`), found above `from`. */
export function nodeBinary(from: string): string {
  for (let dir = from; dirname(dir) !== dir; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules/.bin/node');
    if (existsSync(candidate)) return candidate;
  }
  throw new Error('node_modules/.bin/node not found above the package');
}

/** Runs `node script ...args` to its end and returns its exit and output. */
export function runNode(node: string, script: string, args: string[]) {
  return new Promise<{
    signal: NodeJS.Signals | null;
    code: number | null;
    stdout: string;
    stderr: string;
  }>((resolve) => {
    const child = spawn(node, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** The result of one {@link runNode}. */
export type NodeRun = Awaited<ReturnType<typeof runNode>>;

/**
 * Writes a child script, `source` given the URL of the package's built root entry
 * (`dist/index.js`: the store without Pi), to `path`; returns the Node to run it.
 */
export async function writeStoreChild(
  path: string,
  source: (storeUrl: string) => string,
): Promise<string> {
  const here = dirname(fileURLToPath(import.meta.url));
  const built = join(here, '../../dist/index.js');
  expect(existsSync(built), 'build the package first (turbo run build)').toBe(true);
  await writeFile(path, source(pathToFileURL(built).href));
  return nodeBinary(here);
}

/** Runs `node script` once per argument list, two children at a time (the two cores are shared). */
export async function runNodeInPairs(
  node: string,
  script: string,
  argLists: string[][],
): Promise<NodeRun[]> {
  const results: NodeRun[] = [];
  for (let index = 0; index < argLists.length; index += 2) {
    const pair = argLists.slice(index, index + 2).map((args) => runNode(node, script, args));
    results.push(...(await Promise.all(pair)));
  }
  return results;
}

/** Checks the receipts a child printed (JSON): the version each reports saved is on disk. */
export async function expectReceiptsOnDisk(root: string, printed: string, label: string) {
  for (const receipt of JSON.parse(printed) as { target: string; version: string | null }[]) {
    const path = join(root, receipt.target);
    const onDisk = existsSync(path)
      ? createHash('sha256')
          .update(await readFile(path, 'utf8'))
          .digest('hex')
      : null;
    expect(onDisk, label).toBe(receipt.version);
  }
}
