import { randomBytes, timingSafeEqual } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { extname, join, relative, sep } from 'node:path';
import type { Duplex } from 'node:stream';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { RepaError } from '@repa/protocol';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import type { FrameStream } from './server-connection.js';

/** Options of {@link startWebListener}. */
export interface WebListenerOptions {
  /** The built web app (`index.html` and its assets), served as static files. */
  staticDirectory: string;
  /** The port on 127.0.0.1; 0 for any free one. */
  port: number;
  /** The secret to require (a restarted daemon keeps its page's); a new random one by default. */
  secret?: string | undefined;
  /** The protocol's frame limit: larger WebSocket messages are refused like larger socket frames. */
  maxFrameBytes: number;
  /**
   * The bytes of a PDF of a space for the reader (`GET /pdf?space=…&path=…`, design R123), read
   * with every read's rules; a `RepaError` is answered as its wire form (404 for `not_found`, else 400).
   */
  pdfBytes?:
    | ((space: string, path: string) => Promise<{ bytes: Buffer; version: string }>)
    | undefined;
  /** Serves one WebSocket (already checked) as a protocol connection. */
  accept: (stream: FrameStream) => void;
  /** Reports a listener error. */
  onError: (error: unknown) => void;
}

/** A running web listener. */
export interface WebListener {
  /** The URL to open once: it carries the per-launch secret, exchanged for a cookie. */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /** The secret it requires. */
  readonly secret: string;
  /** Stops listening and closes every WebSocket. */
  close(): Promise<void>;
}

const LOOPBACK = '127.0.0.1';
/** The path of the WebSocket bridge to protocol v1. */
const RPC_PATH = '/rpc';
/** The path of a space's PDF bytes for the reader. */
const PDF_PATH = '/pdf';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/** Text files sent gzip-compressed to a browser that accepts it (the script is ~400 KB raw). */
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.svg', '.map', '.txt']);
const gzipBytes = promisify(gzip);

/** Whether an `Accept-Encoding` header accepts gzip (named, without `q=0`). */
function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [coding, ...parameters] = part.trim().toLowerCase().split(';');
    const q = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return coding?.trim() === 'gzip' && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/**
 * Serves the built web app and its WebSocket bridge on 127.0.0.1. Every request must name the
 * listener in `Host` (127.0.0.1:PORT or localhost:PORT) and, when it sends `Origin`, come from it
 * (403 otherwise; the WebSocket upgrade must send it); every request must carry the per-launch
 * secret as the cookie set by opening {@link WebListener.url} (401 otherwise). No CORS.
 */
export async function startWebListener(options: WebListenerOptions): Promise<WebListener> {
  const files = listFiles(options.staticDirectory);
  if (!files.has('/index.html')) {
    throw new RepaError(
      'not_found',
      `The web app is not built: ${options.staticDirectory} has no index.html.`,
      {
        fix: 'Build the workspace (turbo run build), or reinstall Repa.',
        details: { staticDirectory: options.staticDirectory },
      },
    );
  }
  const secret = options.secret ?? randomBytes(32).toString('base64url');
  let port = options.port;
  const cookieName = () => `repa_web_${port}`;
  const hosts = () => [`${LOOPBACK}:${port}`, `localhost:${port}`];
  const origins = () => hosts().map((host) => `http://${host}`);

  /** 403 for a foreign Host or Origin, 401 without the secret, else undefined. */
  const refusal = (request: IncomingMessage, requireOrigin: boolean): 401 | 403 | undefined => {
    if (!hosts().includes(request.headers.host ?? '')) return 403;
    const origin = request.headers.origin;
    if (origin === undefined ? requireOrigin : !origins().includes(origin)) return 403;
    const given = cookieValue(request.headers.cookie, cookieName());
    return given !== undefined && sameSecret(given, secret) ? undefined : 401;
  };

  const wss = new WebSocketServer({
    noServer: true,
    // Messages up to twice the frame limit reach the frame decoder, which answers
    // `message_too_large` as on the socket; anything larger is cut off by ws itself (close 1009).
    maxPayload: 2 * options.maxFrameBytes,
    perMessageDeflate: false,
  });

  // Each file's gzip copy, made at its first request and kept while its bytes stay the same.
  const compressed = new Map<string, { source: Buffer; gzip: Buffer }>();
  const gzipOf = async (file: string, body: Buffer): Promise<Buffer> => {
    const kept = compressed.get(file);
    if (kept?.source.equals(body)) return kept.gzip;
    const made = await gzipBytes(body);
    compressed.set(file, { source: body, gzip: made });
    return made;
  };

  const server = createServer((request, response) => {
    void serve(request, response).catch((error: unknown) => {
      options.onError(error);
      if (!response.headersSent) response.writeHead(500).end();
      else response.destroy();
    });
  });

  const serve = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const status = refusal(request, false);
    if (status === 403) return void plain(response, 403, 'Forbidden');
    const offered = url.searchParams.get('secret');
    if (status === 401 && request.method === 'GET' && offered !== null) {
      if (!sameSecret(offered, secret)) return void plain(response, 401, 'Unauthorized');
      // The secret becomes a cookie and leaves the address bar (and the history).
      response.writeHead(303, {
        location: '/',
        'set-cookie': `${cookieName()}=${secret}; HttpOnly; SameSite=Strict; Path=/`,
        'cache-control': 'no-store',
      });
      response.end();
      return;
    }
    if (status === 401) return void plain(response, 401, 'Unauthorized');
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('allow', 'GET, HEAD');
      return void plain(response, 405, 'Method Not Allowed');
    }
    if (url.pathname === PDF_PATH) return servePdf(url, request, response);
    const path = url.pathname === '/' ? '/index.html' : url.pathname;
    const file = files.get(path);
    if (file === undefined) return void plain(response, 404, 'Not Found');
    const source = await readFile(file);
    const compress =
      COMPRESSIBLE.has(extname(file)) && acceptsGzip(request.headers['accept-encoding']);
    const body = compress ? await gzipOf(file, source) : source;
    response.writeHead(200, {
      ...securityHeaders(port),
      'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': body.length,
      ...(compress ? { 'content-encoding': 'gzip' } : {}),
      vary: 'accept-encoding',
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  };

  const servePdf = async (
    url: URL,
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<void> => {
    const space = url.searchParams.get('space');
    const path = url.searchParams.get('path');
    if (options.pdfBytes === undefined || !space || !path) {
      return void plain(response, 404, 'Not Found');
    }
    let read: { bytes: Buffer; version: string };
    try {
      read = await options.pdfBytes(space, path);
    } catch (error) {
      const failure = RepaError.fromUnknown(error);
      const body = Buffer.from(JSON.stringify(failure.toWire()));
      response.writeHead(failure.code === 'not_found' ? 404 : 400, {
        ...securityHeaders(port),
        'content-type': 'application/json',
        'content-length': body.length,
      });
      return void response.end(body);
    }
    response.writeHead(200, {
      ...securityHeaders(port),
      'content-type': 'application/pdf',
      'content-length': read.bytes.length,
      etag: `"${read.version}"`,
    });
    response.end(request.method === 'HEAD' ? undefined : read.bytes);
  };

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => {});
    const status = refusal(request, true);
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (status !== undefined || path !== RPC_PATH) {
      const code = status ?? 404;
      const reason = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' }[code];
      socket.end(`HTTP/1.1 ${code} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => options.accept(new WebSocketFrames(ws)));
  });

  port = await new Promise<number>((resolve, reject) => {
    const onError = (error: Error): void => {
      reject(
        new RepaError(
          'io_error',
          `Could not listen on ${LOOPBACK}:${options.port}: ${error.message}`,
          {
            fix: 'Choose a free port with --port, or leave it out for any free port.',
            details: { port: options.port },
            cause: error,
          },
        ),
      );
    };
    server.once('error', onError);
    server.listen({ host: LOOPBACK, port: options.port }, () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : options.port);
    });
  });
  server.on('error', options.onError);

  let closed: Promise<void> | undefined;
  return {
    url: `http://${LOOPBACK}:${port}/?secret=${secret}`,
    port,
    secret,
    close() {
      closed ??= new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

/**
 * A WebSocket as a {@link FrameStream}: each text message is one frame (a newline is added), each
 * line written is sent as one message (without its newline).
 */
class WebSocketFrames extends EventEmitter implements FrameStream {
  readonly #ws: WebSocket;

  constructor(ws: WebSocket) {
    super();
    this.#ws = ws;
    ws.on('message', (data: RawData) => {
      this.emit('data', Buffer.concat([...asBuffers(data), Buffer.from('\n')]));
    });
    ws.on('error', (error) => this.emit('error', error));
    ws.once('close', () => this.emit('close'));
  }

  get destroyed(): boolean {
    return this.#ws.readyState === WebSocket.CLOSED || this.#ws.readyState === WebSocket.CLOSING;
  }

  get writable(): boolean {
    return this.#ws.readyState === WebSocket.OPEN;
  }

  get writableLength(): number {
    return this.#ws.bufferedAmount;
  }

  pause(): void {
    this.#ws.pause();
  }

  write(line: string): boolean {
    if (this.writable) this.#ws.send(withoutNewline(line));
    return true;
  }

  end(line: string): void {
    if (!this.writable) return;
    // 1008: policy violation — the frame before it says which (e.g. message_too_large).
    this.#ws.send(withoutNewline(line), () => this.#ws.close(1008));
  }

  destroy(): void {
    this.#ws.terminate();
  }
}

function asBuffers(data: RawData): Buffer[] {
  if (Array.isArray(data)) return data;
  return [Buffer.isBuffer(data) ? data : Buffer.from(data)];
}

function withoutNewline(line: string): string {
  return line.endsWith('\n') ? line.slice(0, -1) : line;
}

/**
 * Headers of every file served: no framing, no sniffing, no referrer; scripts only from here, and
 * nothing loaded from elsewhere (images only from here or `data:`, no DNS prefetch of a link's host).
 */
function securityHeaders(port: number): Record<string, string> {
  // The WebSocket bridge, and the page's own fetches (a PDF's bytes for the reader; pdf.js's worker).
  const self = [LOOPBACK, 'localhost']
    .flatMap((host) => [`ws://${host}:${port}`, `http://${host}:${port}`])
    .join(' ');
  return {
    'content-security-policy': `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src ${self}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-store',
  };
}

function plain(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  });
  response.end(`${text}\n`);
}

/** The regular files under `directory` by URL path (`/assets/app.js`), read once at start. */
function listFiles(directory: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      const stats = statSync(path, { throwIfNoEntry: false });
      if (stats?.isDirectory()) walk(path);
      else if (stats?.isFile())
        files.set(`/${relative(directory, path).split(sep).join('/')}`, path);
    }
  };
  walk(directory);
  return files;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
