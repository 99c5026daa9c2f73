import { fauxAssistantMessage } from '@earendil-works/pi-ai';
import { describe, expect, it } from 'vitest';
import { filterCompactionPreparation } from './filter-compaction-preparation.js';
import type { AgentMessage, CompactionPreparation } from './pi-types.js';

const t = Date.now();
const custom = (customType: string): AgentMessage => ({
  role: 'custom',
  customType,
  content: customType,
  display: false,
  timestamp: t,
});
const history: AgentMessage[] = [
  custom('repa.learning-context'),
  { role: 'user', content: 'question', timestamp: t },
  fauxAssistantMessage('answer'),
  {
    role: 'toolResult',
    toolCallId: 'c1',
    toolName: 'read',
    content: [{ type: 'text', text: 'file text' }],
    isError: false,
    timestamp: t,
  },
  custom('repa.file-changes'),
  { role: 'branchSummary', summary: 'earlier branch', fromId: 'x', timestamp: t },
  custom('someone-else'),
];

function preparation(): CompactionPreparation {
  return {
    firstKeptEntryId: 'k',
    messagesToSummarize: [...history],
    turnPrefixMessages: [custom('repa.learning-context'), custom('repa.file-changes')],
    isSplitTurn: true,
    tokensBefore: 100,
    previousSummary: 'before',
    fileOps: { read: new Set(), written: new Set(), edited: new Set() },
    settings: { enabled: true, reserveTokens: 10, keepRecentTokens: 10 },
  };
}

const roles = (messages: AgentMessage[]) =>
  messages.map((m) => (m.role === 'custom' ? m.customType : m.role));

describe('filterCompactionPreparation', () => {
  describe('what it removes', () => {
    it('removes snapshots and notices of disabled sources only', () => {
      const prep = preparation();
      expect(
        filterCompactionPreparation(prep, { learningContext: false, fileChanges: 'off' }),
      ).toEqual({ removed: 4 });
      expect(roles(prep.messagesToSummarize)).toEqual([
        'user',
        'assistant',
        'toolResult',
        'branchSummary',
        'someone-else',
      ]);
      expect(prep.turnPrefixMessages).toEqual([]);
      expect(prep.previousSummary).toBe('before');
      expect(prep.tokensBefore).toBe(100);
    });

    it('keeps each source that is enabled', () => {
      const lcOn = preparation();
      filterCompactionPreparation(lcOn, { learningContext: true, fileChanges: 'off' });
      expect(roles(lcOn.messagesToSummarize)).toContain('repa.learning-context');
      expect(roles(lcOn.messagesToSummarize)).not.toContain('repa.file-changes');
      const allOn = preparation();
      expect(
        filterCompactionPreparation(allOn, { learningContext: true, fileChanges: 'on-demand' }),
      ).toEqual({ removed: 0 });
      expect(allOn.messagesToSummarize).toEqual(history);
    });
  });
});
