// Puts `repa` on the PATH from this clone: a small shell script in ~/.local/bin (or --bin-dir DIR)
// that runs the built CLI on the clone's own Node 22, whatever `node` the shell has.
// Runs on any Node (it only writes one file); `npm run install-cli` builds the CLI first.
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const MARKER = '# repa launcher written by npm run install-cli';
const root = fileURLToPath(new URL('..', import.meta.url));
const node = join(root, 'node_modules', '.bin', 'node');
const main = join(root, 'apps', 'cli', 'dist', 'main.js');

function fail(message, fix) {
  process.stderr.write(`install-cli: ${message}\nFix: ${fix}\n`);
  process.exit(1);
}

const args = process.argv.slice(2);
// npm runs scripts in the repository root; INIT_CWD is where the user typed the command.
// biome-ignore lint/suspicious/noUndeclaredEnvVars: set by npm for this script, not a build input
const typedIn = process.env.INIT_CWD ?? process.cwd();
let binDir = join(homedir(), '.local', 'bin');
if (args.length === 2 && args[0] === '--bin-dir') binDir = resolve(typedIn, args[1]);
else if (args.length > 0) {
  fail(`Unknown arguments '${args.join(' ')}'.`, 'Use: npm run install-cli [-- --bin-dir DIR]');
}

if (!existsSync(node)) fail(`No Node 22 in ${node}.`, 'Run npm run setup in the clone first.');
if (!existsSync(main))
  fail(`The CLI is not built (${main}).`, 'Run npm run install-cli, which builds it.');

const target = join(binDir, 'repa');
if (existsSync(target) || isLink(target)) {
  const ours = lstatSync(target).isFile() && readFileSync(target, 'utf8').includes(MARKER);
  if (!ours)
    fail(`${target} exists and is not Repa's launcher.`, 'Move it away, or pass --bin-dir DIR.');
}

const quote = (text) => `'${text.replace(/'/g, "'\\''")}'`;
mkdirSync(binDir, { recursive: true });
const temporary = `${target}.${process.pid}.tmp`;
writeFileSync(
  temporary,
  `#!/bin/sh\n${MARKER} in ${root}\nexec ${quote(node)} ${quote(main)} "$@"\n`,
);
chmodSync(temporary, 0o755);
renameSync(temporary, target);

process.stdout.write(`Installed ${target} (runs ${main} on ${node}).\n`);
const onPath = (process.env.PATH ?? '')
  .split(delimiter)
  .some((dir) => resolve(dir || '.') === binDir);
process.stdout.write(
  onPath
    ? 'Try it from any folder: repa doctor\n'
    : `${binDir} is not on your PATH; add it, e.g. in ~/.profile: export PATH="${binDir}:$PATH"\n`,
);

function isLink(path) {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
