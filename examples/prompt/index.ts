import { assembleSystemPrompt } from '@repa/prompt';
import type { PromptSettings } from '@repa/protocol';

// The run's resolved `prompts.*` settings (what @repa/settings' resolveForRun returns).
const settings: PromptSettings = {
  base: null, // Repa's own base prompt
  append: 'Answer in short paragraphs.',
  projectInstructions: true,
  skillCatalog: true,
  environment: true,
  learningContext: true,
  fileChanges: 'on-demand',
};

const { text, sections, report } = assembleSystemPrompt({
  settings,
  sources: { append: 'space' }, // the level each setting came from
  environment: {
    spaceRoot: '/home/me/biology',
    spaceName: 'biology',
    platform: 'linux',
    date: '2025-06-01',
  },
  skills: [],
  projectInstructions: { trusted: false, files: [{ path: 'AGENTS.md', text: 'Be brief.' }] },
  tools: [{ name: 'read', description: 'Read a file of the space.' }],
});
// Hand Pi { role: 'system', content: '', sections }; Pi renders exactly `text`.
console.log(`${text.length} characters in ${Object.keys(sections).length} sections`);
for (const section of report) {
  console.log(`${section.included ? '+' : '-'} ${section.name}: ${section.reason}`);
}
