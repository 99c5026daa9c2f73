import { describe, expect, it } from 'vitest';
import { DEFAULT_PROMPT_SETTINGS } from './index.js';

describe('DEFAULT_PROMPT_SETTINGS', () => {
  it('holds the defaults of spec R14', () => {
    expect(DEFAULT_PROMPT_SETTINGS).toEqual({
      base: null,
      append: '',
      projectInstructions: false,
      skillCatalog: true,
      environment: true,
      learningContext: true,
      fileChanges: 'on-demand',
      citations: true,
      studySummary: true,
    });
    expect(Object.isFrozen(DEFAULT_PROMPT_SETTINGS)).toBe(true);
  });
});
