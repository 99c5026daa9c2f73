import { OFFLINE_MODEL_ID } from '@repa/protocol';
import { describe, expect, it } from 'vitest';
import { describeModel } from './describe-model.js';

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
