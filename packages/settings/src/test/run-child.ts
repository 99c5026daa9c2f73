import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const packageRoot = fileURLToPath(new URL('../..', import.meta.url));
const childScript = fileURLToPath(new URL('./settings-child.mjs', import.meta.url));
/** Node 22 from the workspace root (the machine's own `node` may be older). */
const nodeBinary = join(packageRoot, '..', '..', 'node_modules', '.bin', 'node');

/** The outcome of one `set` in a child. */
export interface ChildOutcome {
  ok: boolean;
  code?: string;
  details?: Record<string, unknown>;
  revisions?: Record<string, number>;
}

/** Fails with a clear message unless `dist/` exists and is newer than every source file. */
export function assertBuilt(): void {
  const built = join(packageRoot, 'dist', 'index.js');
  if (!existsSync(built)) {
    throw new Error('dist/ is missing: run `turbo run build --filter=@repa/settings...` first.');
  }
  const builtAt = statSync(built).mtimeMs;
  const sources = readdirSync(join(packageRoot, 'src')).filter(
    (name) => name.endsWith('.ts') && !name.endsWith('.test.ts'),
  );
  for (const name of sources) {
    if (statSync(join(packageRoot, 'src', name)).mtimeMs > builtAt) {
      throw new Error(`dist/ is older than src/${name}: rebuild @repa/settings first.`);
    }
  }
}

function startChild(job: object): {
  child: ChildProcessByStdio<Writable, Readable, Readable>;
  lines: AsyncIterator<string>;
  exited: Promise<unknown[]>;
  stderr: string[];
} {
  const child = spawn(nodeBinary, [childScript, JSON.stringify(job)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return { child, lines, exited, stderr };
}

/**
 * Runs one child per job at the same time: starts them all, waits until each has loaded the
 * package, releases them together, and returns each child's outcomes in job order.
 */
export async function runChildren(jobs: readonly object[]): Promise<ChildOutcome[][]> {
  const children = jobs.map(startChild);
  for (const { lines, stderr } of children) {
    const first = await lines.next();
    if (first.value !== 'ready') throw new Error(`child did not start: ${stderr.join('')}`);
  }
  for (const { child } of children) child.stdin.end('go\n');
  return Promise.all(
    children.map(async ({ lines, exited, stderr }) => {
      const result = await lines.next();
      const [code] = await exited;
      if (code !== 0 || typeof result.value !== 'string') {
        throw new Error(`child exited with ${code}: ${stderr.join('')}`);
      }
      return JSON.parse(result.value) as ChildOutcome[];
    }),
  );
}
