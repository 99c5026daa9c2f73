import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { openWebApp } from '@repa/protocol/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { tempAppDirectory } from '../test/builders.js';
import { listenerRequest } from '../test/listener-request.js';
import { RawConnection } from '../test/raw-connection.js';
import { type DaemonChild, spawnDaemon } from '../test/spawn-daemon.js';

// A daemon in its own process (the built dist) serving a small static app: every check is made over
// real HTTP and WebSocket connections, as a browser (or a hostile page) would make them. The listener
// across daemon restarts is in web-listener-restart.test.ts.

const MAX_FRAME_BYTES = 16 * 1024;
let daemon: DaemonChild;
let url: URL;
let port: number;
let secret: string;
let cookie: string;

/** One HTTP request to this file's listener with exactly these headers (Host included). */
const get = (path: string, headers: Record<string, string>, method?: string) =>
  listenerRequest(port, path, headers, method);

const host = () => `127.0.0.1:${port}`;
const origin = () => `http://127.0.0.1:${port}`;
const upgradeHeaders = {
  connection: 'Upgrade',
  upgrade: 'websocket',
  'sec-websocket-version': '13',
  'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
};

/** A WebSocket to the bridge, open, with its messages queued. */
async function bridge(): Promise<{
  ws: WebSocket;
  next: () => Promise<unknown>;
  closed: Promise<number>;
}> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/rpc`, { headers: { cookie }, origin: origin() });
  const queue: unknown[] = [];
  const waiters: ((message: unknown) => void)[] = [];
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as unknown;
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else queue.push(message);
  });
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const next = () =>
    queue.length > 0
      ? Promise.resolve(queue.shift())
      : new Promise<unknown>((resolve) => waiters.push(resolve));
  return { ws, next, closed };
}

/** What the unix socket answers to the same bytes (one frame). */
async function socketAnswer(bytes: string, initialize: boolean): Promise<unknown> {
  const connection = await RawConnection.open(daemon.socketPath);
  try {
    if (initialize) await connection.initialize();
    await connection.write(`${bytes}\n`);
    return await connection.next();
  } finally {
    connection.destroy();
  }
}

beforeAll(async () => {
  const appDirectory = tempAppDirectory();
  const staticDirectory = join(appDirectory, 'web');
  mkdirSync(join(staticDirectory, 'assets'), { recursive: true });
  writeFileSync(join(staticDirectory, 'index.html'), '<!doctype html><title>app</title>');
  writeFileSync(join(staticDirectory, 'assets', 'app.js'), 'console.log(1);');
  daemon = await spawnDaemon(appDirectory, 1, {
    maxFrameBytes: MAX_FRAME_BYTES,
    web: { staticDirectory },
  });
  expect(daemon.line).toMatch(/^ready /);
  url = new URL((await openWebApp({ socketPath: daemon.socketPath })).url);
  port = Number(url.port);
  secret = url.searchParams.get('secret') ?? '';
  cookie = `repa_web_${port}=${secret}`;
});

afterAll(() => {
  daemon?.child.kill('SIGKILL');
});

describe('the web listener', () => {
  it('listens on 127.0.0.1 with a long per-launch secret in the URL; asking again gives the same URL', async () => {
    expect(url.hostname).toBe('127.0.0.1');
    expect(port).toBeGreaterThan(0);
    expect(secret).toMatch(/^[\w-]{43}$/);
    expect((await openWebApp({ socketPath: daemon.socketPath })).url).toBe(url.href);
  });

  it('refuses another port while it serves one (busy)', async () => {
    const other = port === 65535 ? port - 1 : port + 1;
    await expect(openWebApp({ socketPath: daemon.socketPath, port: other })).rejects.toMatchObject({
      code: 'busy',
    });
  });

  it('answers 401 and nothing else without the secret, or with a wrong one', async () => {
    for (const path of ['/', '/index.html', '/assets/app.js', '/?secret=wrong', '/nope']) {
      const answer = await get(path, { host: host() });
      expect(answer.status, path).toBe(401);
      expect(answer.body).toBe('Unauthorized\n');
      expect(answer.headers['set-cookie']).toBeUndefined();
    }
    const wrongCookie = await get('/', { host: host(), cookie: `repa_web_${port}=${secret}x` });
    expect(wrongCookie.status).toBe(401);
  });

  it('exchanges the secret for an HttpOnly, SameSite=Strict cookie and a redirect that drops it', async () => {
    const answer = await get(`/?secret=${secret}`, { host: host() });
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/');
    expect(answer.headers['set-cookie']).toEqual([
      `repa_web_${port}=${secret}; HttpOnly; SameSite=Strict; Path=/`,
    ]);
  });

  it('serves the app with the cookie, under a strict CSP and without CORS', async () => {
    const page = await get('/', { host: host(), cookie });
    expect(page.status).toBe(200);
    expect(page.body).toBe('<!doctype html><title>app</title>');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const asset = await get('/assets/app.js', {
      host: `localhost:${port}`,
      cookie,
      origin: origin(),
    });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    for (const answer of [page, asset]) {
      expect(
        Object.keys(answer.headers).filter((name) => name.startsWith('access-control-')),
      ).toEqual([]);
    }
    expect((await get('/../web/index.html', { host: host(), cookie })).status).toBe(404);
    expect((await get('/', { host: host(), cookie }, 'POST')).status).toBe(405);
  });

  it('sends text files gzip-compressed to a client that accepts gzip, and plain to one that does not', async () => {
    const raw = (headers: Record<string, string>) =>
      new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        const call = request({ host: '127.0.0.1', port, path: '/assets/app.js', headers });
        call.once('error', reject);
        call.once('response', (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ headers: response.headers, body: Buffer.concat(chunks) }),
          );
        });
        call.end();
      });
    const zipped = await raw({ host: host(), cookie, 'accept-encoding': 'gzip, deflate, br' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['content-length']).toBe(String(zipped.body.length));
    expect(gunzipSync(zipped.body).toString('utf8')).toBe('console.log(1);');
    for (const refused of [undefined, 'identity', 'gzip;q=0']) {
      const headers = { host: host(), cookie, ...(refused ? { 'accept-encoding': refused } : {}) };
      const plainAnswer = await raw(headers);
      expect(plainAnswer.headers['content-encoding']).toBeUndefined();
      expect(plainAnswer.body.toString('utf8')).toBe('console.log(1);');
      expect(plainAnswer.headers.vary).toBe('accept-encoding');
    }
  });

  it('answers 403 to a foreign Host or Origin, with or without the cookie (DNS rebinding, cross-site use)', async () => {
    const refused: Record<string, string>[] = [
      { host: `evil.example:${port}`, cookie },
      { host: `127.0.0.1:${port + 1}`, cookie },
      { host: '127.0.0.1', cookie },
      { host: host(), cookie, origin: 'http://evil.example' },
      { host: host(), cookie, origin: `http://127.0.0.1:${port + 1}` },
      { host: host(), cookie, origin: 'null' },
      { host: `evil.example:${port}` },
    ];
    for (const headers of refused) {
      const answer = await get('/', headers);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.body).toBe('Forbidden\n');
    }
    const preflight = await get('/', { host: host(), origin: 'http://evil.example' }, 'OPTIONS');
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('checks the WebSocket upgrade too: 401 without the cookie, 403 for a foreign or missing Origin', async () => {
    const cases: [Record<string, string>, number][] = [
      [{ host: host(), origin: origin() }, 401],
      [{ host: host(), origin: 'http://evil.example', cookie }, 403],
      [{ host: host(), cookie }, 403],
      [{ host: `evil.example:${port}`, origin: origin(), cookie }, 403],
    ];
    for (const [headers, status] of cases) {
      const answer = await get('/rpc', { ...upgradeHeaders, ...headers });
      expect(answer.upgraded, JSON.stringify(headers)).toBe(false);
      expect(answer.status, JSON.stringify(headers)).toBe(status);
    }
    const accepted = await get('/rpc', {
      ...upgradeHeaders,
      host: host(),
      origin: origin(),
      cookie,
    });
    expect(accepted.upgraded).toBe(true);
    expect(accepted.status).toBe(101);
  });
});

describe('the WebSocket bridge', () => {
  it('answers exactly as the socket does: initialize, a call before it, invalid messages, bad JSON', async () => {
    const { ws, next } = await bridge();
    const before = '{"jsonrpc":"2.0","id":1,"method":"run.get","params":{"runId":"r1"}}';
    ws.send(before);
    expect(await next()).toEqual(await socketAnswer(before, false));

    ws.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'initialize',
        params: { protocolVersions: ['v1'] },
      }),
    );
    expect(await next()).toMatchObject({ id: 2, result: { protocolVersion: 'v1' } });

    const invalid = [
      '{"jsonrpc":"1.0","id":3,"method":"run.get"}',
      '{"jsonrpc":"2.0","id":4,"method":"run.get","params":{"runId":"r1","extra":true}}',
      '{"jsonrpc":"2.0","id":5,"method":"run.get","params":{"runId":"r1"},"__proto__":{"x":1}}',
      'not json',
      '[]',
      '{"jsonrpc":"2.0","id":6,"method":"nope.method"}',
    ];
    for (const bytes of invalid) {
      ws.send(bytes);
      const answer = (await next()) as { error?: { data?: { code?: string } } };
      expect(answer, bytes).toEqual(await socketAnswer(bytes, true));
      expect(answer.error?.data?.code, bytes).toMatch(/^(invalid_request|method_not_found)$/);
    }
    ws.send('{"jsonrpc":"2.0","id":7,"method":"run.get","params":{"runId":"r1"}}');
    expect(await next()).toMatchObject({ id: 7, result: { run: { runId: 'r1' } } });
    ws.close();
  });

  it('does not offer the unix-socket-only method that opens the listener', async () => {
    const { ws, next } = await bridge();
    ws.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersions: ['v1'] },
      }),
    );
    await next();
    ws.send(
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'repa.web.open', params: { port: 0 } }),
    );
    expect(await next()).toMatchObject({ id: 2, error: { data: { code: 'method_not_found' } } });
    ws.close();
  });

  it('refuses a message over the frame limit with the socket’s message_too_large, then closes', async () => {
    const huge = `{"jsonrpc":"2.0","id":1,"method":"run.get","params":{"runId":"${'x'.repeat(MAX_FRAME_BYTES)}"}}`;
    const { ws, next, closed } = await bridge();
    ws.send(huge);
    const answer = await next();
    expect(answer).toEqual(await socketAnswer(huge, false));
    expect(answer).toMatchObject({
      id: null,
      error: { data: { code: 'message_too_large', details: { limit: MAX_FRAME_BYTES } } },
    });
    expect(await closed).toBe(1008);
  });

  it('cuts off a message of more than twice the limit at the WebSocket layer (close 1009)', async () => {
    const { ws, closed } = await bridge();
    ws.send('x'.repeat(2 * MAX_FRAME_BYTES + 1));
    expect(await closed).toBe(1009);
  });
});
