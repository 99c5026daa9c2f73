import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExtensionContext } from '@earendil-works/pi-coding-agent';
import { ContentObserver, ContentStore } from '@repa/content';
import { createContentTools } from '@repa/content/tools';

const base = mkdtempSync(join(tmpdir(), 'repa-content-example-'));
const root = join(base, 'biology');
mkdirSync(join(root, 'notes'), { recursive: true });
writeFileSync(join(root, 'notes', 'cells.md'), '# Cells\n\nRibosomes make proteins.\n');

const store = await ContentStore.open({ root, appDirectory: join(base, 'app') });
const observer = new ContentObserver(store); // what one host saw (spec R54)
const tools = createContentTools({ store, observer }); // Pi ToolDefinitions: a session's customTools
console.log(`tools: ${tools.map((tool) => tool.name).join(', ')}`);

// What Pi's agent loop does with the model's tool call `read { path: 'notes/cells.md' }`:
const read = tools.find((tool) => tool.name === 'read');
const context = { cwd: root } as ExtensionContext;
const result = await read?.execute(
  'call-1',
  { path: 'notes/cells.md' },
  undefined,
  undefined,
  context,
);
console.log(`read: ${JSON.stringify(result?.content[0])}`);

// The learner edits the file outside Repa; before the next request the host asks what changed.
writeFileSync(join(root, 'notes', 'cells.md'), '# Cells\n\nRibosomes make proteins from RNA.\n');
const report = await observer.checkChanges('diff');
console.log(
  `changed since the model read them: ${report.changes.map((change) => change.target).join(', ')}`,
);
