import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createSandbox, repa, spawnRepa } from '@repa/test-kit';
import { afterAll, describe, expect, it } from 'vitest';

// Commands that only talk to a running daemon start on the CLI's bundle (with the protocol) alone: `repa` is run with
// a Node module hook that writes down every module each process loads.

const sandbox = createSandbox();
const log = join(sandbox.root, 'loaded.txt');
const hook = join(sandbox.root, 'log-loads.mjs');
writeFileSync(
  hook,
  `import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
registerHooks({
  load(url, context, next) {
    appendFileSync(${JSON.stringify(log)}, \`\${process.pid} \${url}\\n\`);
    return next(url, context);
  },
});
`,
);

afterAll(async () => {
  await repa(sandbox, ['daemon', 'stop']);
  rmSync(sandbox.root, { recursive: true, force: true });
});

/** Runs `repa …` with the hook; the modules that `repa` process itself loaded. */
async function loadedBy(args: string[]): Promise<string[]> {
  const child = spawnRepa(sandbox, args, {
    env: { NODE_OPTIONS: `--import ${pathToFileURL(hook).href}` },
  });
  child.child.stdin.end();
  const { code, stderr } = await child.exited;
  expect(code, stderr).toBe(0);
  const pid = `${child.child.pid} `;
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith(pid))
    .map((line) => line.slice(pid.length));
}

describe('commands that only talk to a running daemon', () => {
  it('daemon restart, daemon status and web load no @repa/application (nor Pi)', async () => {
    await repa(sandbox, ['daemon', 'start', '--model', 'repa-offline']);
    for (const args of [
      ['daemon', 'restart', '--model', 'repa-offline'],
      ['daemon', 'status'],
      ['web', '--no-open'],
    ]) {
      const loaded = await loadedBy(args);
      // The hook saw the command's own modules (the protocol is bundled into them).
      expect(loaded.some((url) => /cli\/dist\/start-cli-/.test(url))).toBe(true);
      expect({
        args,
        heavy: loaded.filter((url) => /application\/dist\/|pi-coding-agent|@repa\/host/.test(url)),
      }).toEqual({ args, heavy: [] });
    }
  });
});
