import type { ModelDecision } from '@repa/protocol';
import { describe, expect, it } from 'vitest';
import {
  choiceSummary,
  keptSettings,
  modelName,
  overridesOf,
  type RunChoiceValue,
  withChoice,
} from './run-choice.js';

const next: ModelDecision = {
  model: 'anthropic/claude-sonnet',
  source: 'space',
  thinkingLevel: 'low',
  thinkingSource: 'pi-default',
  offline: false,
  credentials: true,
};
const models = [{ id: 'anthropic/claude-sonnet', name: 'Claude Sonnet' }];
const nameOf = (id: string | undefined) => modelName(id, models);

describe("the composer's model choice", () => {
  it('sends overrides only for what was chosen', () => {
    expect(overridesOf({})).toEqual({});
    expect(overridesOf({ thinkingLevel: 'high' })).toEqual({
      overrides: { thinkingLevel: 'high' },
    });
  });

  it('chooses a model and a level one at a time, and "as set" takes one back', () => {
    let value: RunChoiceValue = withChoice({}, 'model', 'anthropic/claude-sonnet');
    value = withChoice(value, 'thinkingLevel', 'high');
    expect(value).toEqual({ model: 'anthropic/claude-sonnet', thinkingLevel: 'high' });
    expect(withChoice(value, 'model', '')).toEqual({ thinkingLevel: 'high' });
  });

  it('keeps for the session only what was chosen, the model first', () => {
    expect(keptSettings({ thinkingLevel: 'high', model: 'a/b' })).toEqual([
      ['model.id', 'a/b'],
      ['model.thinkingLevel', 'high'],
    ]);
    expect(keptSettings({ thinkingLevel: 'off' })).toEqual([['model.thinkingLevel', 'off']]);
  });

  it('sums up what the next request uses: as set, or chosen for it alone', () => {
    expect(choiceSummary({}, next, nameOf)).toBe('Claude Sonnet, thinking low');
    expect(choiceSummary({ model: 'repa-offline' }, next, nameOf)).toBe(
      'local responder, thinking low (this request only)',
    );
    expect(choiceSummary({ model: 'other/model' }, undefined, nameOf)).toBe(
      'other/model, thinking … (this request only)',
    );
    expect(choiceSummary({}, undefined, nameOf)).toBe('…, thinking …');
  });
});
