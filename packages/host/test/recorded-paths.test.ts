// Design R74, R69: a path Repa recorded earlier (a material's grant, an identity, an intent or
// history record, a learning context's source, a session file) is checked again when it is used,
// exactly as a tool call's path: replaced by a link to a file outside the space, or to a file in
// `.repa`, it is refused and nothing of what the link leads to is read or written.
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fauxAssistantMessage } from '@earendil-works/pi-ai';
import {
  addMaterial,
  ContentStore,
  listMaterials,
  readContentText,
  rewindGroup,
} from '@repa/content';
import { RepaError, type RunEvent } from '@repa/protocol';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';
import { afterEach, describe, expect, it } from 'vitest';
import { PiConversationHost } from '../src/conversation/pi-conversation-host.js';
import { buildLearningContext } from '../src/learning-context/build-learning-context.js';
import {
  getLearningContext,
  setLearningContext,
} from '../src/learning-context/space-learning-context.js';
import { offlineModel } from '../src/models/choose-model.js';
import { createSpaceSession, findSessionFile } from '../src/sessions/space-sessions.js';
import { createFauxHost } from '../src/testing/index.js';
import { toolCall } from './faux-replies.js';

const SECRET = 'SECRET-3c9e: the deploy key is hunter2';
const NOTE = 'Tides turn every six hours.\n';
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** A space with `notes/a.md`, beside a folder `outside/`; a secret outside and one in `.repa`. */
interface Sandbox {
  parent: string;
  space: string;
  app: string;
  /** The two files a link may lead to, each holding {@link SECRET}. */
  secrets: { outside: string; repa: string };
}

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function sandbox(): Sandbox {
  const parent = realpathSync(mkdtempSync(join(tmpdir(), 'repa-recorded-')));
  made.push(parent);
  const space = join(parent, 'space');
  for (const dir of [join(space, 'notes'), join(space, '.repa'), join(parent, 'outside')]) {
    mkdirSync(dir, { recursive: true });
  }
  writeFileSync(join(space, 'notes', 'a.md'), NOTE);
  const secrets = {
    outside: join(parent, 'outside', 'secret.md'),
    repa: join(space, '.repa', 'secret.md'),
  };
  writeFileSync(secrets.outside, SECRET);
  writeFileSync(secrets.repa, SECRET);
  return { parent, space, app: join(parent, 'app'), secrets };
}

type Target = keyof Sandbox['secrets'];

/** One kind of recorded path: how Repa records it, how a link replaces it, how it is used. */
interface RecordedKind {
  name: string;
  /** Records a path the way Repa does; returns the file it names. */
  record(box: Sandbox): Promise<string>;
  /** Puts a link to `secret` where the recorded file was (default: the file itself). */
  replace?(box: Sandbox, file: string, target: Target): void;
  /** Uses the record as Repa does: the outcome (a refusal is `refused:<code>`) and what is shown. */
  use(box: Sandbox): Promise<{ outcome: string; shown: unknown }>;
  /** The outcome expected once the file is a link to each target. */
  expected: Record<Target, string>;
}

const refusedBy = { outside: 'refused:path_outside_space', repa: 'refused:protected_path' };
/** Sets a learning context built from notes/a.md; that note's path, as the context records it. */
async function recordContextSource(box: Sandbox): Promise<string> {
  await setLearningContext(box.space, {
    body: 'Tides.',
    sources: ['notes/a.md'],
    expectedRevision: null,
  });
  return join(box.space, 'notes', 'a.md');
}

/** Grants `books/ch3.md` (outside the space) to the space as `repa:material/ch3`. */
async function grantChapter(box: Sandbox): Promise<string> {
  const file = join(box.parent, 'books', 'ch3.md');
  mkdirSync(join(box.parent, 'books'));
  writeFileSync(file, 'Enzymes lower activation energy.\n');
  await addMaterial(box.app, { path: file, id: 'ch3', spaces: [realpathSync(box.space)] });
  return file;
}

/** A session of the space; its file as the application keeps it once found. */
async function session(box: Sandbox): Promise<string> {
  const { sessionId } = await createSpaceSession(box.space);
  return findSessionFile(box.space, sessionId);
}

/** Opens a host on the session file found before, as the application does at a later run. */
async function openHost(box: Sandbox) {
  const [file] = readdirSync(join(box.space, '.repa', 'sessions')).filter((name) =>
    name.endsWith('.jsonl'),
  );
  const choice = await offlineModel();
  const host = await PiConversationHost.open({
    space: box.space,
    sessionFile: join(box.space, '.repa', 'sessions', file as string),
    appDirectory: box.app,
    agentDir: join(box.parent, 'agent'),
    modelRuntime: choice.modelRuntime,
    model: choice.model,
  });
  const shown = host.session.messages;
  host.dispose();
  return { outcome: 'opened', shown };
}

const KINDS: RecordedKind[] = [
  {
    name: "a material's grant (the grants file in the app dir), read and searched in a run",
    record: grantChapter,
    use: async (box) => {
      const { host, faux, requests } = await createFauxHost({
        space: box.space,
        appDirectory: box.app,
        agentDir: join(box.parent, 'agent'),
      });
      faux.setResponses([
        toolCall('read', { path: 'repa:material/ch3' }),
        toolCall('grep', { pattern: 'key', path: 'repa:material/ch3' }),
        fauxAssistantMessage('done'),
      ]);
      const events: RunEvent[] = [];
      await host.send('what does ch3 say?', DEFAULT_PROMPT_SETTINGS, {
        onEvent: (event) => events.push(event),
      });
      host.dispose();
      const ends = events.flatMap((event) => (event.type === 'tool-end' ? [event] : []));
      const outcome = ends.map((end) => `${end.toolName}:${end.error?.code ?? 'ok'}`).join(' ');
      // What the model was sent: every request of the run.
      return { outcome, shown: requests };
    },
    expected: {
      outside: 'read:material_not_granted grep:material_not_granted',
      repa: 'read:material_not_granted grep:material_not_granted',
    },
  },
  {
    name: "a material's grant, listed with its state (and told to the model)",
    record: grantChapter,
    use: async (box) => {
      const { materials } = await listMaterials(box.app, { space: box.space });
      return { outcome: `state:${materials[0]?.state}`, shown: materials };
    },
    expected: { outside: 'state:vanished', repa: 'state:vanished' },
  },
  {
    name: 'an identity of the identity index (.repa/identities.json and its log)',
    record: async (box) => {
      const store = await ContentStore.open({ root: box.space });
      const { identity } = await store.read('notes/a.md');
      writeFileSync(join(box.parent, 'identity'), identity);
      return join(box.space, 'notes', 'a.md');
    },
    use: async (box) => {
      const store = await ContentStore.open({ root: box.space });
      const identity = readFileSync(join(box.parent, 'identity'), 'utf8');
      const read = await readContentText(store, identity, { maxChars: 1000 });
      return { outcome: 'read', shown: read.text };
    },
    expected: refusedBy,
  },
  {
    name: 'an intent record (.repa/intents) left by a save a crash interrupted',
    record: async (box) => {
      const change = {
        target: 'notes/a.md',
        identity: 'repa:document/rec-1',
        previousVersion: sha(NOTE),
        version: sha('Tides turn twice a day.\n'),
        content: Buffer.from('Tides turn twice a day.\n').toString('base64'),
        temp: 'notes/.a.md.repa-tmp-op-rec-1-0',
        mode: null,
        createdDirs: [],
      };
      const record = {
        format: 'repa.content-intent/1',
        operationId: 'op-rec-1',
        createdAt: '2026-01-01T00:00:00.000Z',
        status: 'pending',
        changes: [change],
      };
      mkdirSync(join(box.space, '.repa', 'intents'));
      writeFileSync(join(box.space, '.repa', 'intents', 'op-rec-1.json'), JSON.stringify(record));
      return join(box.space, 'notes', 'a.md');
    },
    use: async (box) => {
      const store = await ContentStore.open({ root: box.space });
      const recovered = store.recovered.map((save) => save.outcome).join(' ');
      return { outcome: recovered, shown: [store.recovered, await store.listRecoverable()] };
    },
    expected: { outside: 'quarantined', repa: 'quarantined' },
  },
  {
    name: 'a history record (.repa/history/saves.log), rewound',
    record: async (box) => {
      const store = await ContentStore.open({ root: box.space });
      const { version } = await store.read('notes/a.md');
      const content = Buffer.from('Tides turn twice a day.\n');
      await store.save([{ target: 'notes/a.md', content, expectedVersion: version }], {
        operationId: 'run1-1',
      });
      return join(box.space, 'notes', 'a.md');
    },
    use: async (box) => {
      const store = await ContentStore.open({ root: box.space });
      const rewind = await rewindGroup(store, 'run1', { rewindId: 'undo1', force: true });
      const outcome = rewind.files
        .map((file) => (file.status === 'refused' ? `refused:${file.error?.code}` : file.status))
        .join(' ');
      return { outcome, shown: rewind };
    },
    expected: refusedBy,
  },
  {
    name: "a learning context's source (.repa/learning-context.json), checked by context.get",
    record: recordContextSource,
    use: async (box) => {
      const context = await getLearningContext(box.space);
      return { outcome: `state:${context?.sourceStates?.[0]?.state}`, shown: context };
    },
    expected: { outside: 'state:vanished', repa: 'state:vanished' },
  },
  {
    name: "a learning context's source, kept by an edit of the context (context.set)",
    record: recordContextSource,
    use: async (box) => {
      const current = await getLearningContext(box.space);
      const written = await setLearningContext(box.space, {
        body: 'Tides, edited.',
        sources: current?.sources ?? [],
        expectedRevision: current?.revision ?? null,
      });
      return { outcome: 'written', shown: [written, await getLearningContext(box.space)] };
    },
    expected: refusedBy,
  },
  {
    name: "a learning context's source, built from again (context.build)",
    record: async (box) => join(box.space, 'notes', 'a.md'),
    use: async (box) => {
      const built = await buildLearningContext(box.space, await offlineModel(), {
        sources: ['notes/a.md'],
      });
      return { outcome: 'built', shown: built };
    },
    expected: refusedBy,
  },
  {
    name: 'a session file found earlier, its folder (.repa/sessions) since replaced by a link',
    record: session,
    replace: (box, file, target) => {
      // A session file of the same name, holding the secret, where the link leads.
      const folder =
        target === 'outside'
          ? join(box.parent, 'outside', 'sessions')
          : join(box.space, '.repa', 'elsewhere');
      mkdirSync(folder);
      const header = readFileSync(file, 'utf8').split('\n')[0] as string;
      const id = JSON.parse(header).id as string;
      const message = {
        type: 'message',
        id: 'm1',
        parentId: null,
        timestamp: new Date().toISOString(),
        message: { role: 'user', content: [{ type: 'text', text: SECRET }], timestamp: 0 },
      };
      writeFileSync(join(folder, basename(file)), `${header}\n${JSON.stringify(message)}\n`);
      expect(id).toMatch(/./u);
      rmSync(join(box.space, '.repa', 'sessions'), { recursive: true });
      symlinkSync(folder, join(box.space, '.repa', 'sessions'));
    },
    use: openHost,
    expected: { outside: 'refused:space_unsafe', repa: 'refused:space_unsafe' },
  },
  {
    name: 'a session file found earlier, since replaced by a link',
    record: session,
    use: openHost,
    expected: { outside: 'refused:session_damaged', repa: 'refused:session_damaged' },
  },
];

describe('a path Repa recorded earlier is checked again when it is used', () => {
  for (const kind of KINDS) {
    for (const target of ['outside', 'repa'] as const) {
      const where = target === 'outside' ? 'outside the space' : 'in .repa';
      it(`${kind.name}: replaced by a link to a file ${where}, it is refused and nothing is read`, async () => {
        const box = sandbox();
        const file = await kind.record(box);
        if (kind.replace) kind.replace(box, file, target);
        else {
          rmSync(file);
          symlinkSync(box.secrets[target], file);
        }
        const { outcome, shown } = await kind.use(box).catch((error: unknown) => {
          if (!RepaError.isInstance(error)) throw error;
          return { outcome: `refused:${error.code}`, shown: [error.message, error.details] };
        });
        expect(JSON.stringify(shown)).not.toContain(SECRET);
        expect(outcome).toBe(kind.expected[target]);
        // Nothing was written through the link either.
        expect(readFileSync(box.secrets.outside, 'utf8')).toBe(SECRET);
        expect(readFileSync(box.secrets.repa, 'utf8')).toBe(SECRET);
      });
    }
  }
});
