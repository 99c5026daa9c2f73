import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

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
