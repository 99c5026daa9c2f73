import { fixturePath } from '@repa/fixtures';
import { repa } from '@repa/test-kit';
import { describe, expect, it } from 'vitest';
import { useEndpointDaemon } from './commands-sandbox.js';

// One daemon on a model served by the test (an OpenAI-compatible endpoint in Pi's models.json),
// so the tools of every request are read from the provider's wire format.
const flashcards = fixturePath('packages', 'flashcards');
const { sandbox, endpoint } = useEndpointDaemon([]);

const toolsOf = (request: Record<string, unknown> | undefined) =>
  ((request?.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name);

describe('repa packages (spec R75)', () => {
  it('adds a local package, lists it, offers its tool and template to runs, and removes it', async () => {
    const add = await repa(sandbox, ['packages', 'add', flashcards]);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toContain(`added: ${flashcards} (application)`);
    const list = await repa(sandbox, ['packages', 'list']);
    expect(list.stdout).toContain(`application  ${flashcards}\n`);
    expect(list.stdout).toMatch(/^ {2}tool {6}flashcard_export {2}\(application: /m);
    expect(list.stdout).toMatch(/^ {2}prompt {4}p {2}/m);

    const enable = ['settings', 'set', 'tools.enabled', '["read","flashcard_export"]'];
    expect((await repa(sandbox, enable)).code).toBe(0);
    endpoint().replies = [{ kind: 'text', text: 'Ready to export.' }];
    const run = await repa(sandbox, ['run', 'Export my tide cards.']);
    expect(run.code, run.stderr).toBe(0);
    expect(toolsOf(endpoint().requests.at(-1)).sort()).toEqual(['flashcard_export', 'read']);

    endpoint().replies = [{ kind: 'text', text: 'Here are the cards.' }];
    const chat = await repa(sandbox, ['chat'], { input: '/help\n/p notes/a.md\n' });
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.stdout).toMatch(/^ {2}\/p {9}Turn a note into flashcards$/m);
    expect(chat.stdout).toContain('Here are the cards.');
    expect(JSON.stringify(endpoint().requests.at(-1)?.messages)).toContain(
      'Make flashcards from notes/a.md, one fact per card.',
    );

    const remove = await repa(sandbox, ['packages', 'remove', flashcards]);
    expect(remove.code, remove.stderr).toBe(0);
    expect(remove.stdout).toContain("Each session's next run starts without it.");
    expect((await repa(sandbox, ['packages', 'list'])).stdout).toContain(
      'No Pi packages are configured.',
    );
    // The next run no longer has the tool: tools.enabled naming it is refused before the model.
    const after = await repa(sandbox, ['run', '-c', 'Export again.']);
    expect(after.code).not.toBe(0);
    expect(after.stderr).toMatch(/Unknown tool flashcard_export in tools\.enabled/);
  });
});
