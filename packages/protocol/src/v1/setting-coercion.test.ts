import { describe, expect, it } from 'vitest';
import { coerceSettingValue, parseSettingValue, SETTING_ITEMS } from './setting-items.js';

/** A typical VALUE a learner types for each setting, and the value it must become. */
const TYPICAL: Record<string, [text: string, value: unknown]> = {
  'prompts.base': ['You tutor biology.', 'You tutor biology.'],
  'prompts.append': ['Answer in French.', 'Answer in French.'],
  'prompts.projectInstructions': ['true', true],
  'prompts.skillCatalog': ['false', false],
  'prompts.environment': ['false', false],
  'prompts.learningContext': ['false', false],
  'prompts.fileChanges': ['diff', 'diff'],
  'prompts.citations': ['false', false],
  'prompts.studySummary': ['false', false],
  'model.id': ['anthropic/claude-sonnet-4-5', 'anthropic/claude-sonnet-4-5'],
  'model.thinkingLevel': ['high', 'high'],
  'tools.enabled': ['["read","grep"]', ['read', 'grep']],
  'tools.bash': ['sandboxed', 'sandboxed'],
  'tools.bashTimeoutSeconds': ['300', 300],
  'tools.edits': ['ask', 'ask'],
  'study.mode': ['tutor', 'tutor'],
  'documents.ocrLanguages': ['["eng","deu"]', ['eng', 'deu']],
  'daemon.idleMinutes': ['0', 0],
  'compaction.instructions': ['Keep the open questions.', 'Keep the open questions.'],
  'runs.retentionDays': ['90', 90],
  'history.maxMegabytes': ['512', 512],
  'history.maxDays': ['7', 7],
  'study.retention': ['0.85', 0.85],
  'study.maximumInterval': ['365', 365],
  'study.fuzz': ['false', false],
  'study.shortTerm': ['false', false],
  'study.learningSteps': ['["10m","1d"]', ['10m', '1d']],
  'study.relearningSteps': ['["30m"]', ['30m']],
};

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

  it("coerces a typical VALUE of every setting to a value of the setting's schema", () => {
    expect(Object.keys(TYPICAL)).toEqual(SETTING_ITEMS.map((item) => item.key));
    for (const item of SETTING_ITEMS) {
      const [text, value] = TYPICAL[item.key] ?? [];
      const coerced = coerceSettingValue(item.key, text ?? '');
      expect(coerced, item.key).toEqual(value);
      expect(item.schema.safeParse(coerced).success, item.key).toBe(true);
    }
  });

  it('keeps a refused VALUE as JSON read it where the item takes no text, so its refusal names it', () => {
    expect(coerceSettingValue('tools.bash', 'true')).toBe(true);
    expect(coerceSettingValue('tools.bashTimeoutSeconds', 'null')).toBeNull();
    expect(coerceSettingValue('tools.bashTimeoutSeconds', '1.5')).toBe(1.5);
    expect(coerceSettingValue('daemon.idleMinutes', '"30"')).toBe('30');
  });

  it('leaves a value the type refuses as text, for the daemon to reject with its message', () => {
    expect(coerceSettingValue('prompts.skillCatalog', 'maybe')).toBe('maybe');
    expect(coerceSettingValue('no.such.key', '12')).toBe(12);
  });
});
