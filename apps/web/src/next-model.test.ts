import type { ModelDecision } from '@repa/protocol';
import { runInfo } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { nextModelView } from './next-model.js';
import { modelLine, runModelOf } from './run-model.js';

const decision: ModelDecision = {
  model: 'anthropic/claude-sonnet',
  source: 'session',
  thinkingLevel: 'medium',
  thinkingSource: 'session',
  offline: false,
  credentials: true,
};

describe('the model line', () => {
  it("names the next run's model, why it is chosen and its thinking level", () => {
    expect(modelLine(nextModelView(decision))).toBe(
      "Model: anthropic/claude-sonnet — this session's model.id, thinking medium",
    );
  });

  it('names the local responder as such, and says nothing without a model', () => {
    const offline = {
      ...decision,
      model: 'repa-offline',
      source: 'daemon',
      offline: true,
    } as const;
    expect(modelLine(nextModelView(offline))).toBe(
      "Model: repa-offline (local responder, no language model) — the daemon's --model, thinking medium",
    );
    expect(modelLine(runModelOf(runInfo()))).toBeUndefined();
  });

  it("names a run's model as its record has it", () => {
    const run = runInfo({ model: 'openai/gpt', modelSource: 'run', thinkingLevel: 'high' });
    expect(modelLine(runModelOf(run))).toBe('Model: openai/gpt — this run only, thinking high');
  });
});
