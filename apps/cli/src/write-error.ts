import { RepaError } from '@repa/protocol';
import { paint } from './style.js';

/** The `repa` command for each protocol method a lower layer's fix may name. */
const METHOD_COMMANDS: Record<string, string> = {
  'settings.get': 'repa settings get',
  'settings.set': 'repa settings set',
  'settings.reset': 'repa settings reset',
  'context.get': 'repa context show',
  'context.set': 'repa context set',
  'context.build': 'repa context build',
  'session.list': 'repa sessions list',
  'session.create': 'repa sessions new',
  'session.history': 'repa sessions show',
  'run.get': 'repa runs show',
  'run.list': 'repa runs list',
  'run.cancel': 'repa runs cancel',
  'run.retry': 'repa runs retry',
  'run.submit': 'repa run',
};

const METHOD = new RegExp(
  `(?<![\\w./-])(${Object.keys(METHOD_COMMANDS)
    .map((method) => method.replace('.', '\\.'))
    .join('|')})(?![\\w-]|\\.\\w)`,
  'g',
);

/** The `delivery` wording of a fix, as the `repa run` flags that pick the delivery. */
const DELIVERY = /\(delivery new or queue\)|with delivery queue \(or new\)/g;
const DELIVERY_COMMANDS = 'with repa run TEXT (or repa run --queue TEXT)';

/** A fix written for protocol clients, with each method it names replaced by its `repa` command. */
export function cliFix(fix: string): string {
  if (fix.includes('run.submit and run.retry are idempotent by requestId')) {
    return 'Run the command again; repa run with the same --request-id returns the original run.';
  }
  return fix
    .replace(DELIVERY, DELIVERY_COMMANDS)
    .replace(METHOD, (method) => METHOD_COMMANDS[method] ?? method);
}

/**
 * Prints `repa: <message> (<code>)` and `Fix: <fix>` on stderr (in colour on a terminal), or with
 * `json` one `{"kind":"error","code","message","fix"}` line on stdout.
 */
export function writeError(
  stderr: NodeJS.WritableStream,
  error: unknown,
  json?: { stdout: NodeJS.WritableStream },
): RepaError {
  const repaError = RepaError.fromUnknown(error);
  const fix = cliFix(repaError.fix);
  if (json) {
    json.stdout.write(
      `${JSON.stringify({ kind: 'error', code: repaError.code, message: repaError.message, fix })}\n`,
    );
    return repaError;
  }
  stderr.write(
    `${paint(stderr, ['bold', 'red'], 'repa:')} ${repaError.message} ${paint(stderr, 'dim', `(${repaError.code})`)}\n${paint(stderr, 'yellow', 'Fix:')} ${fix}\n`,
  );
  return repaError;
}
