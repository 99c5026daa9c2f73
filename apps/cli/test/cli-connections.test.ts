import { mkdirSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { daemonPaths } from '@repa/protocol/node';
import { repa } from '@repa/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDaemon } from './commands-sandbox.js';

// Every connection costs both processes a handshake (`initialize`), so a `repa` command asks a
// running daemon everything on one. The sandbox's daemon is reached through a second app
// directory whose socket forwards to it, counting the connections made.

const sandbox = useDaemon();
const appDir = join(sandbox.root, 'counted-app');
let proxy: Server;
let connections = 0;

beforeAll(async () => {
  const daemon = daemonPaths(sandbox.appDir);
  const counted = daemonPaths(appDir);
  mkdirSync(counted.runDirectory, { recursive: true, mode: 0o700 });
  proxy = createServer((socket) => {
    connections += 1;
    const upstream = connect(daemon.socketPath);
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(counted.socketPath, resolve));
});

afterAll(async () => {
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  rmSync(appDir, { recursive: true, force: true });
});

/** Runs `repa …` against the counted socket; the connections it made. */
async function connectionsOf(args: string[]): Promise<number> {
  const before = connections;
  const { code, stderr } = await repa(
    sandbox,
    ['--app-dir', appDir, '--agent-dir', sandbox.agentDir, ...args],
    { global: false },
  );
  expect(code, stderr).toBe(0);
  return connections - before;
}

describe('a repa command and a running daemon', () => {
  it('ask the daemon on one connection: sessions list, settings get, daemon status and doctor', async () => {
    for (const args of [
      ['sessions', 'list'],
      ['settings', 'get'],
      ['daemon', 'status'],
      ['doctor'],
    ]) {
      expect({ args, connections: await connectionsOf(args) }).toEqual({ args, connections: 1 });
    }
  });
});
