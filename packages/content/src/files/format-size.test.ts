import { formatSize as piFormatSize } from '@earendil-works/pi-coding-agent';
import { describe, expect, it } from 'vitest';
import { formatSize } from './format-size.js';

describe('formatSize', () => {
  it('writes every size as Pi writes it', () => {
    const sizes = [0, 1, 1023, 1024, 1536, 50 * 1024, 1024 * 1024 - 1, 1024 * 1024];
    sizes.push(64 * 1024 * 1024, 256 * 1024 * 1024 + 7, 5 * 1024 ** 3);
    for (const bytes of sizes) expect(formatSize(bytes), String(bytes)).toBe(piFormatSize(bytes));
  });
});
