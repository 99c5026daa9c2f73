import { describe, expect, it } from 'vitest';
import { formatTable, relativeTime, shortId, uniquePrefixes } from './format-table.js';

describe('formatTable', () => {
  const rows = [
    ['3f2a9c1e', 'succeeded', 'What does notes/a.md say about the tides in spring?'],
    ['77b0d4aa', 'failed', 'Summarise the chapter'],
  ];

  it('pads columns under upper-case headers, in full without a width', () => {
    expect(formatTable(['run', 'status', 'request'], rows)).toBe(
      'RUN       STATUS     REQUEST\n' +
        '3f2a9c1e  succeeded  What does notes/a.md say about the tides in spring?\n' +
        '77b0d4aa  failed     Summarise the chapter\n',
    );
  });

  it('shortens the last column first so that every line fits the width', () => {
    const table = formatTable(['run', 'status', 'request'], rows, { width: 40 });
    const lines = table.trimEnd().split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(40);
    expect(lines[1]).toBe('3f2a9c1e  succeeded  What does notes/a.…');
    expect(lines[2]).toBe('77b0d4aa  failed     Summarise the chap…');
  });

  it('shortens other wide columns when the last one is at its floor', () => {
    const wide = [['/home/someone/a/very/long/space/path', 'x']];
    const lines = formatTable(['space', 'request'], wide, { width: 20 }).trimEnd().split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(20);
    expect(lines[1]).toMatch(/^\/home\/some.*… {2}x$/);
  });
});

describe('relativeTime', () => {
  const now = Date.parse('2026-12-03T12:00:00Z');

  it('says just now, minutes and hours ago, else the local date and time', () => {
    expect(relativeTime('2026-12-03T11:59:30Z', now)).toBe('just now');
    expect(relativeTime('2026-12-03T11:55:00Z', now)).toBe('5 min ago');
    expect(relativeTime('2026-12-03T09:00:00Z', now)).toBe('3 h ago');
    const old = new Date('2026-11-02T08:04:00Z');
    const pad = (value: number) => String(value).padStart(2, '0');
    expect(relativeTime(old.toISOString(), now)).toBe(
      `${old.getFullYear()}-${pad(old.getMonth() + 1)}-${pad(old.getDate())} ${pad(old.getHours())}:${pad(old.getMinutes())}`,
    );
    expect(relativeTime('not a time', now)).toBe('not a time');
  });
});

describe('shortId', () => {
  it('keeps the first 8 characters', () => {
    expect(shortId('59137a5e-afa7-499e-9ccd-2935704e4154')).toBe('59137a5e');
  });
});

describe('uniquePrefixes', () => {
  it('gives UUIDv7 ids made moments apart the shortest prefixes that tell them apart', () => {
    const ids = [
      '01a23f15-3749-7589-9e47-39a92e1ab227',
      '01a23f15-aac7-7044-a51c-49a0f2e1c001',
      '77b0d4aa-0000-4000-8000-000000000000',
    ];
    const prefixes = uniquePrefixes(ids);
    expect([...prefixes.values()]).toEqual(['01a23f15-3', '01a23f15-a', '77b0d4aa']);
    for (const [id, prefix] of prefixes) {
      expect(ids.filter((other) => other.startsWith(prefix))).toEqual([id]);
    }
  });
});
