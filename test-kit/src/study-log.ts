import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { CliSandbox } from './cli-harness.js';

// The study log of a sandbox's space (`.repa/study/reviews.log`) as a test reads and writes it:
// after a header line, each line is its entry's CRC-32 (8 hex digits), a space and the entry's JSON.

const logOf = (sandbox: CliSandbox) => join(sandbox.space, '.repa/study/reviews.log');

/** The entries of the sandbox space's study log, parsed (as `T`: the members a test reads). */
export function studyLog<T = Record<string, unknown>>(sandbox: CliSandbox): T[] {
  return readFileSync(logOf(sandbox), 'utf8')
    .split('\n')
    .slice(1)
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line.slice(9)) as T);
}

/** Appends `entry` to the sandbox space's study log as one intact line, as the log writes it. */
export function appendStudyLog(sandbox: CliSandbox, entry: Record<string, unknown>): void {
  const json = JSON.stringify(entry);
  appendFileSync(logOf(sandbox), `\n${crc32(json).toString(16).padStart(8, '0')} ${json}`);
}
