import { describe, expect, it } from 'vitest';
import { parseSettingValue } from './settings-commands.js';

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
