#!/usr/bin/env node
import { readFileSync } from 'node:fs';

const { version } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as {
  version: string;
};

const HELP = `repa ${version} — talk to an agent inside a space of documents and materials.

Usage:
  repa --help      Show this help.
  repa --version   Print the version.

The daemon, chat, run, settings and demo commands are not built yet; see the README.
`;

const [command] = process.argv.slice(2);
if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
  process.stdout.write(HELP);
} else if (command === '--version' || command === '-v') {
  process.stdout.write(`${version}\n`);
} else {
  process.stderr.write(
    `repa: unknown command '${command}' (invalid_request)\nFix: run 'repa --help' to see the commands.\n`,
  );
  process.exitCode = 2;
}
