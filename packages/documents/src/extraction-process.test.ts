import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { makePdf } from '@repa/fixtures';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'repa-extraction-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A process that reads a PDF through the built package, then says what would keep it alive.
const CHILD = (distUrl: string) => `
import { readFile } from 'node:fs/promises';
import { readDocument } from ${JSON.stringify(distUrl)};
const document = await readDocument('pdf', await readFile(process.argv[2]));
const alive = process.getActiveResourcesInfo();
process.stdout.write(JSON.stringify({ parts: document.parts.length, alive }));
process.exit(0);
`;

describe('the extraction process', () => {
  it('keeps nothing of its parent alive once idle, so a script that read a document ends', async () => {
    const dist = join(import.meta.dirname, '../dist/index.js');
    expect(existsSync(dist), 'build the package first (turbo run build)').toBe(true);
    const script = join(dir, 'read.mjs');
    writeFileSync(script, CHILD(pathToFileURL(dist).href));
    const pdf = join(dir, 'notes.pdf');
    writeFileSync(pdf, makePdf([{ lines: ['Osmosis'] }]));
    const { stdout } = await promisify(execFile)(process.execPath, [script, pdf]);
    const { parts, alive } = JSON.parse(stdout) as { parts: number; alive: string[] };
    expect(parts).toBe(1);
    // Its child process, the IPC channel and the pipe of the child's standard error are unref'd.
    expect(alive.filter((handle) => /Pipe|Process/u.test(handle))).toEqual([]);
  });
});
