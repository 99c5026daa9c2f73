import { OFFLINE_MODEL_ID } from '@repa/protocol';
import { describe, expect, it } from 'vitest';
import { describeModel, describeRunModel, statusLine } from './describe-model.js';

describe('describeModel', () => {
  describe('the offline responder', () => {
    it('uses the protocol name and says it is no language model', () => {
      expect(describeModel(OFFLINE_MODEL_ID)).toBe(
        'repa-offline (local responder, no language model)',
      );
      expect(describeModel('anthropic/claude-x')).toBe('anthropic/claude-x');
    });
  });
});

describe('describeRunModel', () => {
  it('names the model, why it was chosen and its thinking level', () => {
    expect(
      describeRunModel({ model: 'anthropic/x', modelSource: 'pi-default', thinkingLevel: 'off' }),
    ).toBe("anthropic/x — Pi's default among the models with credentials, thinking off");
    expect(
      describeRunModel({ model: OFFLINE_MODEL_ID, source: 'no-credentials', thinkingLevel: 'off' }),
    ).toBe(
      'repa-offline (local responder, no language model) — no model has credentials, thinking off',
    );
    expect(describeRunModel({ model: 'a/b', modelSource: 'space' })).toBe(
      "a/b — this space's model.id",
    );
  });
});

describe('statusLine', () => {
  it("names the model and Pi's context estimate as an estimate", () => {
    expect(
      statusLine({
        model: 'a/b',
        thinkingLevel: 'high',
        usage: { contextTokensEstimate: 1200, contextWindow: 200_000 },
      }),
    ).toBe(
      "[status] model a/b, thinking high · context about 1200 of 200000 tokens (Pi's estimate)",
    );
    expect(statusLine({ model: OFFLINE_MODEL_ID, thinkingLevel: 'off' })).toBe(
      '[status] model repa-offline, thinking off · no context use (the local responder counts no tokens)',
    );
  });
});
