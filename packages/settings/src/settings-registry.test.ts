import { modelSettingsSchema, promptSettingsSchema } from '@repa/protocol/schemas';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createSettingsRegistry,
  defineSettingItem,
  modelSettingItems,
  settingsRegistry,
} from './settings-registry.js';

describe('settingsRegistry', () => {
  describe('prompts namespace', () => {
    it('declares the eight prompt items with the defaults of spec R13 and R14', () => {
      const defaults = Object.fromEntries(
        settingsRegistry.items
          .filter((item) => item.key.startsWith('prompts.'))
          .map((item) => [item.key, item.defaultValue]),
      );
      expect(defaults).toEqual({
        'prompts.base': null,
        'prompts.append': '',
        'prompts.projectInstructions': false,
        'prompts.skillCatalog': true,
        'prompts.environment': true,
        'prompts.learningContext': true,
        'prompts.fileChanges': 'on-demand',
        'prompts.citations': true,
        'prompts.studySummary': true,
      });
    });

    it('covers every field of the protocol PromptSettings', () => {
      const fields = Object.keys(promptSettingsSchema.shape).map((field) => `prompts.${field}`);
      expect(
        settingsRegistry.items
          .map((item) => item.key)
          .filter((key) => key.startsWith('prompts.'))
          .sort(),
      ).toEqual(fields.sort());
    });

    it('declares the model items (null defaults where Pi decides; bash off, 120 s; edits auto; study mode answer; OCR in eng) for every ModelSettings field', () => {
      const model = new Set(Object.values(modelSettingItems).map((item) => item.key));
      const defaults = Object.fromEntries(
        settingsRegistry.items
          .filter((item) => model.has(item.key))
          .map((item) => [item.key, item.defaultValue]),
      );
      expect(defaults).toEqual({
        'model.id': null,
        'model.thinkingLevel': null,
        'tools.enabled': null,
        'tools.bash': 'off',
        'tools.bashTimeoutSeconds': 120,
        'tools.edits': 'auto',
        'study.mode': 'answer',
        'documents.ocrLanguages': ['eng'],
      });
    });

    it('declares daemon.idleMinutes: 30 minutes by default, 0 (never) allowed, negatives refused', () => {
      const item = settingsRegistry.get('daemon.idleMinutes');
      expect(item?.defaultValue).toBe(30);
      expect(item?.schema.safeParse(0).success).toBe(true);
      expect(item?.schema.safeParse(0.5).success).toBe(true);
      expect(item?.schema.safeParse(-1).success).toBe(false);
      expect(item?.schema.safeParse('30').success).toBe(false);
      expect(Object.keys(modelSettingItems).sort()).toEqual(
        Object.keys(modelSettingsSchema.shape).sort(),
      );
    });

    it('accepts Pi thinking levels and tool-name lists, and refuses anything else', () => {
      const level = settingsRegistry.get('model.thinkingLevel')?.schema;
      expect(level?.safeParse('xhigh').success).toBe(true);
      expect(level?.safeParse('extreme').success).toBe(false);
      const tools = settingsRegistry.get('tools.enabled')?.schema;
      expect(tools?.safeParse(['read', 'grep']).success).toBe(true);
      expect(tools?.safeParse('read').success).toBe(false);
      expect(settingsRegistry.get('model.id')?.schema.safeParse('').success).toBe(false);
    });

    it('accepts each fileChanges mode and nothing else', () => {
      const schema = settingsRegistry.get('prompts.fileChanges')?.schema;
      for (const mode of ['off', 'on-demand', 'notice', 'diff']) {
        expect(schema?.safeParse(mode).success).toBe(true);
      }
      expect(schema?.safeParse('always').success).toBe(false);
    });

    it('documents every mode of prompts.fileChanges', () => {
      const description = settingsRegistry.get('prompts.fileChanges')?.description ?? '';
      for (const mode of ['`off`', '`on-demand`', '`notice`', '`diff`']) {
        expect(description).toContain(mode);
      }
    });
  });

  describe('get', () => {
    it('returns undefined for an unknown key', () => {
      expect(settingsRegistry.get('prompts.nope')).toBeUndefined();
    });
  });
});

describe('createSettingsRegistry', () => {
  describe('duplicates', () => {
    it('throws when a key is declared twice', () => {
      const item = defineSettingItem({
        key: 'test.once',
        description: 'x',
        schema: z.string(),
        defaultValue: '',
      });
      expect(() => createSettingsRegistry([item, item])).toThrow(/declared twice/);
    });
  });
});

describe('defineSettingItem', () => {
  describe('validation', () => {
    it('throws when the default does not match the schema', () => {
      expect(() =>
        defineSettingItem({
          key: 'test.bad',
          description: 'x',
          schema: z.string() as z.ZodType<unknown>,
          defaultValue: 1,
        }),
      ).toThrow(/does not match/);
    });

    it('throws on a key without a namespace', () => {
      expect(() =>
        defineSettingItem({ key: 'base', description: 'x', schema: z.string(), defaultValue: '' }),
      ).toThrow(/dotted/);
    });
  });
});
