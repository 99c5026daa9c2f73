// A throwaway npm registry for `npm run release:check`: Verdaccio (a root dev dependency) on
// 127.0.0.1 only, its config and storage in a temp folder, `@repa/*` served only from what is
// published to it, every other package proxied from the registry the npm client is set up with.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The registry the machine's npm client uses: the uplink for third-party packages. */
function upstreamRegistry(env) {
  const { stdout, status } = spawnSync('npm', ['config', 'get', 'registry'], {
    env,
    encoding: 'utf8',
  });
  const url = status === 0 ? stdout.trim() : '';
  if (!/^https?:\/\//.test(url)) throw new Error(`npm config get registry gave "${url}"`);
  return url;
}

const config = ({ storage, htpasswd, upstream, port }) => `storage: ${JSON.stringify(storage)}
auth:
  htpasswd:
    file: ${JSON.stringify(htpasswd)}
    max_users: 1
uplinks:
  upstream:
    url: ${JSON.stringify(upstream)}
    timeout: 120s
    max_fails: 5
packages:
  '@repa/*':
    access: $all
    publish: $authenticated
  '**':
    access: $all
    publish: $authenticated
    proxy: upstream
listen: 127.0.0.1:${port}
server:
  keepAliveTimeout: 60
web:
  enable: false
log: { type: stdout, format: pretty, level: warn }
`;

/** Resolves when `url` answers `/-/ping`, or rejects once `ms` passed or the process ended. */
async function waitUntilUp(url, child, ms) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Verdaccio exited (${child.exitCode})`);
    try {
      const response = await fetch(`${url}/-/ping`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Verdaccio did not answer at ${url} within ${ms} ms`);
}

/**
 * Starts Verdaccio in `folder` and signs one user in; returns its `url`, an `npmrc` for clients
 * (registry and token) and `stop()`. `env` is the environment the npm client runs with.
 */
export async function startLocalRegistry(folder, env) {
  mkdirSync(folder, { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const configPath = join(folder, 'config.yaml');
  writeFileSync(
    configPath,
    config({
      storage: join(folder, 'storage'),
      htpasswd: join(folder, 'htpasswd'),
      upstream: upstreamRegistry(env),
      port,
    }),
  );
  const bin = join(dirname(require.resolve('verdaccio/package.json')), 'bin', 'verdaccio');
  const log = [];
  const child = spawn(process.execPath, [bin, '--config', configPath], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  for (const stream of [child.stdout, child.stderr]) {
    stream.on('data', (chunk) => log.push(String(chunk)));
  }
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  try {
    await waitUntilUp(url, child, 60_000);
    const response = await fetch(`${url}/-/user/org.couchdb.user:repa`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'repa', password: 'release-check' }),
    });
    const { token } = await response.json();
    if (!response.ok || typeof token !== 'string') {
      throw new Error(`Verdaccio refused the user (${response.status})`);
    }
    const npmrc = join(folder, 'npmrc');
    writeFileSync(npmrc, `registry=${url}/\n//127.0.0.1:${port}/:_authToken=${token}\n`);
    return { url, npmrc, stop, log };
  } catch (error) {
    await stop();
    throw new Error(`${error.message}\n${log.join('')}`);
  }
}
