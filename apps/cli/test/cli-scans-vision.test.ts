import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type EndpointReply, makeScannedPdf } from '@repa/fixtures';
import { jsonLines, repa } from '@repa/test-kit';
import { describe, expect, it } from 'vitest';
import { useEndpointDaemon } from './commands-sandbox.js';

// A scanned page read by a scripted model endpoint (design R121): a model that accepts images is
// sent the page's image beside its OCR text; a text-only model the OCR text alone.
const read: EndpointReply = {
  kind: 'tools',
  calls: [{ name: 'read', arguments: { path: 'scan.pdf' } }],
};
const { sandbox, endpoint } = useEndpointDaemon([
  read,
  { kind: 'text', text: 'Seen.' },
  read,
  { kind: 'text', text: 'Read.' },
]);

/** The model request that carried the read's result (the one after the tool call). */
function resultRequest(from: number): string {
  const request = endpoint()
    .requests.slice(from)
    .find((body) => JSON.stringify(body).includes('"role":"tool"'));
  return JSON.stringify(request ?? null);
}

describe('a scanned page read for a model', () => {
  it('sends a model that accepts images the page image, and a text-only model its OCR text', async () => {
    const scan = await makeScannedPdf([{ lines: ['Osmosis moves water', 'across a membrane'] }]);
    writeFileSync(join(sandbox.space, 'scan.pdf'), scan);

    const before = endpoint().requests.length;
    const seeing = await repa(sandbox, ['run', '--json', '--model', 'test/seer', 'Read scan.pdf.']);
    expect(seeing.code, seeing.stderr).toBe(0);
    const sent = resultRequest(before);
    expect(sent).toContain('data:image/png;base64,');
    expect(sent).toContain('Osmosis moves water');
    const end = jsonLines(seeing.stdout)
      .map((line) => line.event as { type?: string; images?: number[] } | undefined)
      .find((event) => event?.type === 'tool-end');
    expect(end?.images).toEqual([1]);

    const middle = endpoint().requests.length;
    const text = await repa(sandbox, ['run', '--json', 'Read scan.pdf.']);
    expect(text.code, text.stderr).toBe(0);
    const told = resultRequest(middle);
    expect(told).toContain('recognised by OCR');
    expect(told).toContain('Osmosis moves water');
    expect(told).not.toContain('data:image/png');
  }, 120_000);
});
