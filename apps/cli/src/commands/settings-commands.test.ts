import { describe, expect, it } from 'vitest';
import { coerceSettingValue, parseSettingValue } from './settings-commands.js';

describe('parseSettingValue', () => {
  describe('JSON when it parses, else the string', () => {
    it('reads JSON values and keeps other text as it is', () => {
      expect(parseSettingValue('false')).toBe(false);
      expect(parseSettingValue('12')).toBe(12);
      expect(parseSettingValue('null')).toBeNull();
      expect(parseSettingValue('"notice"')).toBe('notice');
      expect(parseSettingValue('["a"]')).toEqual(['a']);
      expect(parseSettingValue('notice')).toBe('notice');
      expect(parseSettingValue('')).toBe('');
      expect(parseSettingValue('Answer in French.')).toBe('Answer in French.');
    });
  });
});

describe('coerceSettingValue', () => {
  it("reads VALUE as the item's type: text stays text where the item is a string", () => {
    expect(coerceSettingValue('prompts.append', '12')).toBe('12');
    expect(coerceSettingValue('prompts.append', 'true')).toBe('true');
    expect(coerceSettingValue('prompts.base', '12')).toBe('12');
    expect(coerceSettingValue('prompts.base', 'null')).toBeNull();
    expect(coerceSettingValue('prompts.skillCatalog', 'false')).toBe(false);
    expect(coerceSettingValue('prompts.fileChanges', 'notice')).toBe('notice');
    expect(coerceSettingValue('tools.enabled', '["read"]')).toEqual(['read']);
    expect(coerceSettingValue('model.thinkingLevel', 'high')).toBe('high');
  });

  it('leaves a value the type refuses as text, for the daemon to reject with its message', () => {
    expect(coerceSettingValue('prompts.skillCatalog', 'maybe')).toBe('maybe');
    expect(coerceSettingValue('no.such.key', '12')).toBe(12);
  });
});
