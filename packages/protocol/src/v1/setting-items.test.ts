import { describe, expect, it } from 'vitest';
import { v1Methods } from './methods.js';
import { SETTING_ITEMS } from './setting-items.js';
import { modelSettingsSchema, promptSettingsSchema } from './settings.js';

describe('SETTING_ITEMS', () => {
  it('declares every item once, each default a value of its own schema', () => {
    const keys = SETTING_ITEMS.map((item) => item.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toHaveLength(
      Object.keys(promptSettingsSchema.shape).length +
        Object.keys(modelSettingsSchema.shape).length +
        5 +
        6,
    );
    for (const item of SETTING_ITEMS) {
      expect(item.schema.safeParse(item.defaultValue).success, item.key).toBe(true);
      expect(item.description.length, item.key).toBeGreaterThan(20);
      expect(item.label, item.key).toMatch(/^[A-Z][^`]{3,60}$/);
    }
    expect(new Set(SETTING_ITEMS.map((item) => item.label)).size).toBe(keys.length);
  });

  it('says the values of every item in a few words, from its schema', () => {
    expect(Object.fromEntries(SETTING_ITEMS.map((item) => [item.key, item.values]))).toEqual({
      'prompts.base': 'null or text',
      'prompts.append': 'text',
      'prompts.projectInstructions': 'true | false',
      'prompts.skillCatalog': 'true | false',
      'prompts.environment': 'true | false',
      'prompts.learningContext': 'true | false',
      'prompts.fileChanges': 'off | on-demand | notice | diff',
      'prompts.citations': 'true | false',
      'prompts.studySummary': 'true | false',
      'model.id': 'null or provider/id',
      'model.thinkingLevel': 'null or off | minimal | low | medium | high | xhigh',
      'tools.enabled': 'null or a list of tool names',
      'tools.bash': 'off | sandboxed',
      'tools.bashTimeoutSeconds': '1–86400',
      'tools.edits': 'auto | ask | off',
      'study.mode': 'answer | tutor',
      'documents.ocrLanguages': 'a list of Tesseract language codes',
      'daemon.idleMinutes': '0–10080',
      'compaction.instructions': 'null or text',
      'runs.retentionDays': '0–36500',
      'history.maxMegabytes': '0–1048576',
      'history.maxDays': '0–36500',
      'study.retention': '0.7–0.99',
      'study.maximumInterval': '1–36500',
      'study.fuzz': 'true | false',
      'study.shortTerm': 'true | false',
      'study.learningSteps': 'a list of steps like 1m, 10m, 1d',
      'study.relearningSteps': 'a list of steps like 10m, 1d',
    });
  });

  it("types settings.set's value per key by the item's schema", () => {
    const params = v1Methods['settings.set'].params;
    for (const item of SETTING_ITEMS) {
      const set = { level: 'application', key: item.key, value: item.defaultValue };
      expect(params.safeParse(set).success, item.key).toBe(true);
    }
    const wrong = { level: 'application', key: 'tools.bashTimeoutSeconds', value: '120' };
    expect(params.safeParse(wrong).success).toBe(false);
  });
});
