import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openWebApp } from '@repa/protocol/node';
import { afterAll, describe, expect, it } from 'vitest';
import { tempAppDirectory } from '../test/builders.js';
import { listenerRequest } from '../test/listener-request.js';
import { type DaemonChild, spawnDaemon } from '../test/spawn-daemon.js';

// The web listener across daemon restarts, each daemon in its own process (the built dist): the
// page's address survives a crash, not a clean stop, and a bad saved state is never trusted.

describe('a restarted daemon', () => {
  const started: DaemonChild[] = [];
  afterAll(() => {
    for (const child of started) child.child.kill('SIGKILL');
  });

  async function webDaemon(appDirectory: string): Promise<DaemonChild> {
    const staticDirectory = join(appDirectory, 'web');
    mkdirSync(staticDirectory, { recursive: true });
    writeFileSync(join(staticDirectory, 'index.html'), 'app');
    const child = await spawnDaemon(appDirectory, 1, { web: { staticDirectory } });
    started.push(child);
    expect(child.line).toMatch(/^ready /);
    return child;
  }

  it('serves the open page again on the same port with the same secret (after kill -9)', async () => {
    const appDirectory = tempAppDirectory();
    const first = await webDaemon(appDirectory);
    const before = (await openWebApp({ socketPath: first.socketPath })).url;
    first.child.kill('SIGKILL');
    await first.exited;
    const second = await webDaemon(appDirectory);
    expect((await openWebApp({ socketPath: second.socketPath })).url).toBe(before);
    const saved = new URL(before);
    const port = Number(saved.port);
    const answer = await listenerRequest(port, '/', {
      host: `127.0.0.1:${port}`,
      cookie: `repa_web_${port}=${saved.searchParams.get('secret')}`,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('app');
  });

  it('serves no page after a clean stop: web.json is deleted and the old port is refused', async () => {
    const appDirectory = tempAppDirectory();
    const first = await webDaemon(appDirectory);
    const before = new URL((await openWebApp({ socketPath: first.socketPath })).url);
    const path = join(appDirectory, 'run', 'web.json');
    expect(existsSync(path)).toBe(true);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(path)).toBe(false);
    await webDaemon(appDirectory);
    expect(existsSync(path)).toBe(false);
    const port = Number(before.port);
    await expect(
      listenerRequest(port, '/', {
        host: `127.0.0.1:${port}`,
        cookie: `repa_web_${port}=${before.searchParams.get('secret')}`,
      }),
    ).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('ignores a saved state that is not a valid regular file, and makes a new secret', async () => {
    for (const bad of ['{"port":1,"secret":"short"}', 'not json', 'symlink']) {
      const appDirectory = tempAppDirectory();
      mkdirSync(join(appDirectory, 'run'), { recursive: true, mode: 0o700 });
      const path = join(appDirectory, 'run', 'web.json');
      if (bad === 'symlink') {
        const target = join(appDirectory, 'elsewhere.json');
        writeFileSync(target, JSON.stringify({ port: 1, secret: 'a'.repeat(43) }));
        symlinkSync(target, path);
      } else writeFileSync(path, bad);
      const child = await webDaemon(appDirectory);
      const url = new URL((await openWebApp({ socketPath: child.socketPath })).url);
      expect(url.port, bad).not.toBe('1');
      expect(url.searchParams.get('secret'), bad).toMatch(/^[\w-]{43}$/);
      expect(url.searchParams.get('secret'), bad).not.toBe('a'.repeat(43));
      expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
        port: Number(url.port),
        secret: url.searchParams.get('secret'),
      });
      expect(statSync(path).mode & 0o777).toBe(0o600);
      child.child.kill('SIGKILL');
    }
  });
});
