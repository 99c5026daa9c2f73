import { afterEach, describe, expect, it } from 'vitest';
import { openTools } from '../test/content-tools.js';
import { removeAll, tempSpace } from '../test/temp-space.js';

const dirs: string[] = [];
afterEach(() => removeAll(dirs));

describe('createContentTools', () => {
  // Pi compiles an argument validator per schema object; a schema per space compiled it per session.
  it('gives every space the same parameters schema object per tool', async () => {
    const first = await tempSpace({});
    const second = await tempSpace({});
    dirs.push(first, second);
    const [a, b] = [(await openTools(first)).tools, (await openTools(second)).tools];
    expect(Object.keys(a).length).toBeGreaterThanOrEqual(7);
    for (const name of Object.keys(a)) {
      expect(b[name]?.parameters, name).toBe(a[name]?.parameters);
    }
  });
});
