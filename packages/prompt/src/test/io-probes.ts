import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/** Reads the disk through a named `node:fs` import, as production code would. */
export function probeDiskSync(): string {
  return readFileSync('/etc/hostname', 'utf8');
}

/** Starts a disk read through a named `node:fs/promises` import. */
export function probeDiskAsync(): Promise<string> {
  return readFile('/etc/hostname', 'utf8');
}

/** Reads the clock the ways production code would. */
export function probeClock(): number[] {
  return [Date.now(), performance.now()];
}

/** Reads the environment the ways production code would. */
export function probeEnvironment(): string[] {
  return [String(process.env.HOME), process.platform, process.cwd()];
}
