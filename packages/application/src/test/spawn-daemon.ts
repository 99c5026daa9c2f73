import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const nodeBinary = fileURLToPath(new URL('../../../../node_modules/.bin/node', import.meta.url));
const daemonScript = fileURLToPath(new URL('./daemon-child.mjs', import.meta.url));

/** Server options the test daemon passes on to `startRepaServer` (JSON, so no functions). */
export interface DaemonChildOptions {
  maxFrameBytes?: number;
  maxConnections?: number;
  maxTotalBufferedBytes?: number;
  tcp?: { port: number; token: string };
  web?: { staticDirectory: string };
}

/** A test daemon in its own process. */
export interface DaemonChild {
  child: ChildProcess;
  /** Its first line: `ready <socketPath>[ <tcpPort>]` or `error <code>`. */
  line: string;
  /** The unix socket path, when ready. */
  socketPath: string;
  /** The loopback TCP address, when it was started with `tcp`. */
  tcpAddress: { host: string; port: number } | undefined;
  /** Resolves with the exit code once the process exited. */
  exited: Promise<number | null>;
}

/**
 * Starts `src/test/daemon-child.mjs` (on the built dist) and waits for its first line. The caller
 * kills the child (SIGKILL) when done.
 */
export async function spawnDaemon(
  appDirectory: string,
  generation: number,
  options: DaemonChildOptions = {},
): Promise<DaemonChild> {
  const child = spawn(
    nodeBinary,
    [daemonScript, appDirectory, String(generation), JSON.stringify(options)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const line = await new Promise<string>((resolve) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('\n')) resolve(output.trim());
    });
    void exited.then(() => resolve(output.trim()));
  });
  const [status, socketPath = '', port] = line.split(' ');
  const ready = status === 'ready';
  return {
    child,
    line,
    socketPath: ready ? socketPath : '',
    tcpAddress: ready && port !== undefined ? { host: '127.0.0.1', port: Number(port) } : undefined,
    exited,
  };
}
