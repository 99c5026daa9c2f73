import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makePdf } from '@repa/fixtures';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const script = join(import.meta.dirname, 'pdf-text.mjs');
const dir = mkdtempSync(join(tmpdir(), 'repa-documents-example-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the example (the built package, as a user would) and gives its exit and output. */
async function example(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [script, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

describe('examples/pdf-text.mjs', () => {
  it("prints a PDF's text page by page, or the pages asked for", async () => {
    const pdf = join(dir, 'lecture.pdf');
    writeFileSync(
      pdf,
      makePdf([{ lines: ['Cells'] }, { lines: ['Mitosis'] }, { lines: ['Meiosis'] }]),
    );
    expect(await example(pdf)).toEqual({
      code: 0,
      stdout: '[Page 1 of 3]\nCells\n\n[Page 2 of 3]\nMitosis\n\n[Page 3 of 3]\nMeiosis\n',
      stderr: '',
    });
    expect((await example(pdf, '2-3')).stdout).toBe(
      '[Page 2 of 3]\nMitosis\n\n[Page 3 of 3]\nMeiosis\n',
    );
  });

  it('says why a file cannot be read, with its code and fix', async () => {
    const broken = join(dir, 'broken.pdf');
    writeFileSync(broken, '%PDF-1.7\nnot a pdf');
    const { code, stderr } = await example(broken);
    expect(code).toBe(1);
    expect(stderr).toContain(`document_unreadable: "${broken}" could not be read as a PDF`);
    expect(stderr).toContain('open it in a reader');
  });
});
