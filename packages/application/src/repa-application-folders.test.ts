import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { createSpaceSession } from '@repa/host';
import { RepaError, type V1Method } from '@repa/protocol';
import { v1Methods } from '@repa/protocol/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { METHOD_FOLDERS } from './handlers/method-folders.js';
import type { RepaApplication } from './repa-application.js';
import { MethodTable } from './server/method-table.js';
import type { RepaHandledMethod } from './server/repa-handlers.js';
import { listener } from './test/run-listener.js';
import { openTestApplication } from './test/test-application.js';

let app: RepaApplication;
let base: string;
let table: MethodTable;
beforeAll(async () => {
  ({ app, base } = await openTestApplication());
  table = new MethodTable(app.handlers());
});
afterAll(() => app.close());

/** Every method the application answers, from the protocol's own list. */
const METHODS = Object.keys(v1Methods).filter(
  (method): method is RepaHandledMethod => method !== 'initialize',
);

/** The fields a method's params may carry (every option's, for a union of shapes). */
function fieldsOf(method: RepaHandledMethod): Record<string, z.ZodType> {
  const schema = v1Methods[method as V1Method].params as unknown as {
    shape?: Record<string, z.ZodType>;
    options?: { shape: Record<string, z.ZodType> }[];
  };
  return schema.shape ?? Object.assign({}, ...(schema.options ?? []).map((one) => one.shape));
}

/** A value for each field a method requires; a new required field needs its line here. */
const SAMPLES: Record<string, unknown> = {
  requestId: 'request-1',
  input: { type: 'text', text: 'Hello.' },
  format: 'markdown',
  title: 'A title',
  endedBefore: '2000-01-01T00:00:00.000Z',
  path: 'notes.md',
  provider: 'nobody',
  type: 'api_key',
  loginId: 'login-1',
  level: 'session',
  key: 'prompts.append',
  value: 'Be brief.',
  session: 'latest',
  run: 'latest',
  passage: 'notes.md',
};

/** Params for `method` naming `folder` (and `sessionId`, when given and the method takes one). */
function paramsOf(method: RepaHandledMethod, folder: string, sessionId?: string) {
  const params: Record<string, unknown> = {};
  for (const [field, schema] of Object.entries(fieldsOf(method))) {
    if (field === 'space' || field === 'root') params[field] = folder;
    else if (field === 'sessionId' && sessionId !== undefined) params[field] = sessionId;
    else if (!schema.safeParse(undefined).success) {
      if (!(field in SAMPLES)) throw new Error(`Add a sample for ${method}'s field ${field}.`);
      params[field] = SAMPLES[field];
    }
  }
  return params;
}

/** A well-formed session id no space has. */
const SESSION_ID = '01990000-0000-7000-8000-000000000000';

const call = (method: RepaHandledMethod, params: unknown) =>
  table.call(method, params, listener().connection);

const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => 'answered',
    (error: unknown) => (RepaError.isInstance(error) ? error.code : String(error)),
  );

async function listed(folder: string): Promise<boolean> {
  const { spaces } = (await call('space.list', {})) as { spaces: { root: string }[] };
  return spaces.some((space) => space.root === folder);
}

function trusted(folder: string): boolean {
  const file = join(base, 'app', 'trusted-spaces.json');
  return existsSync(file) && readFileSync(file, 'utf8').includes(JSON.stringify(folder));
}

function plainFolder(name: string): string {
  const folder = join(base, name);
  mkdirSync(folder);
  writeFileSync(join(folder, 'notes.md'), '# Tides\n\nThe Moon pulls the sea.\n');
  return folder;
}

describe('what a method does to the folder it names (method-folders.ts)', () => {
  it('is declared for every method of the protocol, by whether its params name a folder', () => {
    for (const method of METHODS) {
      const names = 'space' in fieldsOf(method) || 'root' in fieldsOf(method);
      expect([method, METHOD_FOLDERS[method] !== 'none']).toEqual([method, names]);
    }
  });

  it('a query opens nothing: no .repa, no list of spaces, no trust, whatever it answers', async () => {
    const queries = METHODS.filter((method) => METHOD_FOLDERS[method] === 'reads');
    expect(queries.length).toBeGreaterThan(15);
    const seen: string[] = [];
    for (const method of queries) {
      const session = fieldsOf(method).sessionId;
      const ids: (string | undefined)[] = session === undefined ? [undefined] : [SESSION_ID];
      if (session?.safeParse(undefined).success) ids.unshift(undefined);
      for (const sessionId of ids) {
        const folder = plainFolder(`plain-${seen.length}`);
        const answer = await outcome(call(method, paramsOf(method, folder, sessionId)));
        const opened = {
          repa: existsSync(join(folder, '.repa')),
          listed: await listed(folder),
          trusted: trusted(folder),
        };
        seen.push(`${method}${sessionId ? ' (session)' : ''}: ${answer}`);
        expect({ method, sessionId, ...opened }).toEqual({
          method,
          sessionId,
          repa: false,
          listed: false,
          trusted: false,
        });
      }
    }
    expect(seen).toContain('session.subscribe (session): not_found');
  });

  it('files.read opens the folder it reads (it records identities there): a plain folder becomes a space Repa made', async () => {
    const folder = plainFolder('read-first');
    await call('files.read', { space: folder, path: 'notes.md' });
    expect(existsSync(join(folder, '.repa'))).toBe(true);
    expect([await listed(folder), trusted(folder)]).toEqual([true, true]);
  });
});

/** A space copied from elsewhere: a session Repa did not start in its `.repa/sessions`. */
async function copiedSpace(
  name: string,
): Promise<{ space: string; shipped: string; sessions: string }> {
  const elsewhere = join(base, `${name}-elsewhere`);
  mkdirSync(elsewhere);
  const { sessionId: shipped } = await createSpaceSession(elsewhere);
  const space = plainFolder(name);
  const sessions = join(space, '.repa', 'sessions');
  mkdirSync(sessions, { recursive: true });
  for (const file of readdirSync(join(elsewhere, '.repa', 'sessions'))) {
    copyFileSync(join(elsewhere, '.repa', 'sessions', file), join(sessions, file));
  }
  // A file a `../` id could reach: `.repa/x.jsonl` beside the sessions folder.
  writeFileSync(join(space, '.repa', 'x.jsonl'), '{}\n');
  return { space, shipped, sessions };
}

describe('the one check of a session id', () => {
  it('every method taking a session id answers not_found for a made-up id, a ../ id and a session that came with the space; nothing is deleted', async () => {
    const { space, shipped, sessions } = await copiedSpace('copied');
    await call('space.open', { root: space });
    const before = readdirSync(sessions);
    const takers = METHODS.filter((method) => 'sessionId' in fieldsOf(method));
    expect(takers).toEqual(expect.arrayContaining(['session.delete', 'run.submit']));
    const answers: string[] = [];
    for (const method of takers) {
      for (const id of [SESSION_ID, '../x', shipped]) {
        answers.push(
          `${method} ${id}: ${await outcome(call(method, paramsOf(method, space, id)))}`,
        );
      }
    }
    expect(answers).toEqual(answers.map((line) => line.replace(/: .*$/, ': not_found')));
    expect(readdirSync(sessions)).toEqual(before);
    expect(existsSync(join(space, '.repa', 'x.jsonl'))).toBe(true);
  });

  it('in a trusted space too, a made-up or ../ id is not_found (a delete answers no success)', async () => {
    const space = plainFolder('trusted-own');
    await call('session.create', { space });
    expect(trusted(space)).toBe(true);
    for (const id of [SESSION_ID, '../x']) {
      for (const method of ['session.delete', 'session.unsubscribe', 'settings.set'] as const) {
        expect([method, id, await outcome(call(method, paramsOf(method, space, id)))]).toEqual([
          method,
          id,
          'not_found',
        ]);
      }
    }
  });

  it('names the sessions command in its fix, and says where a shipped session came from', async () => {
    const { space, shipped } = await copiedSpace('shared');
    const refusal = (id: string) =>
      call('session.delete', { space, sessionId: id }).catch((error: RepaError) => error);
    const madeUp = await refusal('no-such-session');
    expect(madeUp).toMatchObject({ code: 'not_found' });
    expect((madeUp as RepaError).fix).toContain(`repa sessions list --space ${space}`);
    const came = await refusal(shipped);
    expect((came as RepaError).message).toContain('came with this space');
    expect((came as RepaError).fix).toContain('repa trust');
  });
});

describe('the home rule (design R17)', () => {
  it('a folder holding the agent dir is refused unless named; named, it is a space, listed but never trusted by itself', async () => {
    const refusal = await call('space.open', { root: base }).catch((error: RepaError) => error);
    expect(refusal).toMatchObject({ code: 'space_unsafe', details: { reason: 'agent-dir' } });
    expect((refusal as RepaError).fix).toContain(`--space ${base}`);
    expect(await outcome(call('session.list', { space: base }))).toBe('space_unsafe');
    expect([await listed(base), trusted(base)]).toEqual([false, false]);
    const { space } = (await call('space.open', { root: base, named: true })) as {
      space: { trusted: boolean };
    };
    expect(space.trusted).toBe(false);
    expect([await listed(base), trusted(base)]).toEqual([true, false]);
    expect(await outcome(call('session.list', { space: base }))).toBe('answered');
  });

  it('so is the app dir itself, and the root of the file system', async () => {
    const appDir = join(base, 'app');
    for (const [root, reason] of [
      [appDir, 'app-dir'],
      ['/', 'root'],
    ]) {
      expect(await call('session.create', { space: root }).catch((error) => error)).toMatchObject({
        code: 'space_unsafe',
        details: { reason },
      });
    }
    expect(existsSync(join(appDir, '.repa'))).toBe(false);
  });
});
