import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TCP_AUTH_METHOD } from '../client/tcp-auth.js';
import { repaErrorOf, useScriptedServers, withInitialize } from '../test/scripted-server.js';
import { createRepaClient } from './socket-transport.js';

const { serve, clientOf } = useScriptedServers();

describe('socketTransport', () => {
  describe('connecting', () => {
    it('rejects with daemon_unavailable telling to start the daemon when no socket exists', async () => {
      const socketPath = join(mkdtempSync(join(tmpdir(), 'repa-client-')), 'daemon.sock');
      const client = createRepaClient({ socketPath });
      const error = await repaErrorOf(client.request('run.get', { runId: 'r1' }));
      expect(error.code).toBe('daemon_unavailable');
      expect(error.message).toContain(socketPath);
      expect(error.fix).toMatch(/repa daemon start/);
      expect(error.details).toMatchObject({ errno: 'ENOENT' });
    });

    it('rejects with daemon_unavailable when TCP connections are refused', async () => {
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen({ host: '127.0.0.1', port: 0 }, resolve));
      const address = probe.address();
      if (typeof address !== 'object' || address === null) throw new Error('no address');
      await new Promise((resolve) => probe.close(resolve));
      const client = createRepaClient({ host: '127.0.0.1', port: address.port, token: 't' });
      const error = await repaErrorOf(client.connect());
      expect(error.code).toBe('daemon_unavailable');
      expect(error.details).toMatchObject({ errno: 'ECONNREFUSED' });
    });

    it('opens a TCP connection with the auth frame, then initialize', async () => {
      const server = await serve(withInitialize(), { tcp: { token: 'secret-token-0123456789' } });
      await clientOf(server).connect();
      expect(server.connections[0]?.received.map((m) => [m.method, m.params])).toEqual([
        [TCP_AUTH_METHOD, { token: 'secret-token-0123456789' }],
        ['initialize', { protocolVersions: ['v1'] }],
      ]);
      expect(server.connections[0]?.received[0]).not.toHaveProperty('id');
    });
  });

  describe('frames', () => {
    it('closes the connection on a line that is not JSON, failing pending calls with internal', async () => {
      const server = await serve(
        withInitialize((m, c) => {
          if (m.method === 'run.get') c.raw('{"jsonrpc":"2.0",\n');
        }),
      );
      const client = clientOf(server);
      const disconnects: string[] = [];
      client.on('disconnect', (error) => disconnects.push(error.code));
      const error = await repaErrorOf(client.request('run.get', { runId: 'r1' }));
      expect(error.code).toBe('internal');
      expect(error.message).toBe('The daemon sent malformed JSON.');
      expect(disconnects).toEqual(['internal']);
    });

    it('closes the connection on a frame over maxFrameBytes with message_too_large', async () => {
      const server = await serve(
        withInitialize((m, c) => {
          if (m.method === 'run.get') c.raw(`"${'x'.repeat(4096)}"\n`);
        }),
      );
      const client = clientOf(server, { maxFrameBytes: 1024 });
      const error = await repaErrorOf(client.request('run.get', { runId: 'r1' }));
      expect(error.code).toBe('message_too_large');
    });
  });
});
