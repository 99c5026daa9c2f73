// Protocol v1 conformance: a client that knows only schema/v1.json and raw frames drives
// a real daemon process (repa-offline) through every method. Every message it sends and receives is
// validated with an independent JSON Schema validator (Ajv, draft 2020-12, with formats); any
// violation fails the test, and so does any loose (`{}`) spot of the schema not allowed below.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

type Json = Record<string, unknown>;

const schemaPath = createRequire(import.meta.url).resolve('@repa/protocol/schema/v1.json');
const doc = JSON.parse(readFileSync(schemaPath, 'utf8')) as {
  methods: Record<string, { description: string; params: Json; result: Json }>;
  notifications: Record<string, Json>;
  error: Json;
  envelope: Record<string, Json>;
  $defs: Record<string, Json>;
};

/**
 * The loose spots the schema may keep, as JSON pointers with `*` for one segment. Each is JSON
 * whose shape the protocol deliberately does not fix.
 */
const LOOSE_ALLOWED = [
  // Structured facts of an error differ per code (e.g. the current version on stale_version).
  '/$defs/Error/properties/details/additionalProperties',
  // The arguments a model gave a tool: whatever that tool's own schema takes.
  '/$defs/RunEvent/oneOf/*/properties/args',
  // A settings item view is one shape for every key; settings.set types the value per key.
  '/$defs/SettingItemView/properties/value',
  '/$defs/SettingItemView/properties/defaultValue',
  '/$defs/SettingItemView/properties/overrides/properties/*/properties/value',
];

// Strict, less two of Ajv's own lints that valid draft 2020-12 trips: `type: [..]` unions and
// `required` inside `then` naming members declared beside it, not in it.
const ajv = new Ajv2020({
  strict: true,
  allowUnionTypes: true,
  strictRequired: false,
  allErrors: true,
});
addFormats.default(ajv);

/** A validator for one schema of the document, with the document's `$defs` beside it. */
function compile(schema: Json): ValidateFunction {
  return ajv.compile({ ...schema, $defs: doc.$defs });
}

const validators = {
  request: compile(doc.envelope.request as Json),
  success: compile(doc.envelope.success as Json),
  error: compile(doc.envelope.error as Json),
  notification: compile(doc.envelope.notification as Json),
  params: new Map(Object.entries(doc.methods).map(([name, m]) => [name, compile(m.params)])),
  result: new Map(Object.entries(doc.methods).map(([name, m]) => [name, compile(m.result)])),
  notificationParams: new Map(
    Object.entries(doc.notifications).map(([name, schema]) => [name, compile(schema)]),
  ),
};

/** Every schema violation seen, by message. */
const violations: string[] = [];

function check(validate: ValidateFunction, value: unknown, what: string): boolean {
  if (validate(value)) return true;
  violations.push(`${what}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(value)}`);
  return false;
}

/** A raw JSON-RPC client over the unix socket that validates every frame both ways. */
class SchemaClient {
  readonly #socket: Socket;
  readonly #pending = new Map<string | number, { method: string; resolve: (m: Json) => void }>();
  readonly #batches: ((m: Json[]) => void)[] = [];
  readonly #errorsWithoutId: ((m: Json) => void)[] = [];
  readonly notifications: Json[] = [];
  #buffer = '';
  #nextId = 1;
  #onNotification: (() => void) | undefined;

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.#buffer += chunk.toString('utf8');
      for (let nl = this.#buffer.indexOf('\n'); nl !== -1; nl = this.#buffer.indexOf('\n')) {
        const line = this.#buffer.slice(0, nl);
        this.#buffer = this.#buffer.slice(nl + 1);
        this.#receive(JSON.parse(line) as unknown);
      }
    });
  }

  static open(socketPath: string): Promise<SchemaClient> {
    return new Promise((resolve, reject) => {
      const socket = connect({ path: socketPath });
      socket.once('error', reject);
      socket.once('connect', () => resolve(new SchemaClient(socket)));
    });
  }

  /** Sends a request (validated against the schema first) and resolves with its response. */
  call(method: string, params: unknown): Promise<Json> {
    const message = { jsonrpc: '2.0', id: this.#nextId++, method, params };
    check(validators.request, message, `request ${method}`);
    const paramsOf = validators.params.get(method);
    if (paramsOf === undefined) violations.push(`request: ${method} is not in the schema`);
    else check(paramsOf, params, `params of ${method}`);
    return this.#send(message, method);
  }

  /** Sends a request the schema must refuse, and resolves with the server's answer. */
  callInvalid(method: string, params: unknown): Promise<Json> {
    const message = { jsonrpc: '2.0', id: this.#nextId++, method, params };
    const paramsOf = validators.params.get(method);
    // An unknown method is refused by the schema too: it has no entry in `methods`.
    if (paramsOf?.(params) === true) {
      violations.push(`the schema accepts ${method} ${JSON.stringify(params)}`);
    }
    return this.#send(message, method);
  }

  /** Writes raw bytes and resolves with the next error response to no pending request. */
  raw(line: string): Promise<Json> {
    return new Promise((resolve) => {
      this.#errorsWithoutId.push(resolve);
      this.#socket.write(line);
    });
  }

  /** Sends a batch and resolves with its array of responses. */
  batch(messages: Json[]): Promise<Json[]> {
    for (const message of messages) {
      if (typeof message.method === 'string' && 'id' in message) {
        check(validators.request, message, `batched ${message.method}`);
      }
    }
    return new Promise((resolve) => {
      this.#batches.push(resolve);
      for (const message of messages) {
        if ('id' in message)
          this.#pending.set(message.id as number, {
            method: String(message.method),
            resolve: () => {},
          });
      }
      this.#socket.write(`${JSON.stringify(messages)}\n`);
    });
  }

  /** Resolves once a notification satisfies `test`. */
  waitFor(test: (notification: Json) => boolean): Promise<Json> {
    return new Promise((resolve) => {
      const look = () => {
        const found = this.notifications.find(test);
        if (found === undefined) return false;
        this.#onNotification = undefined;
        resolve(found);
        return true;
      };
      if (!look()) this.#onNotification = look;
    });
  }

  close(): void {
    this.#socket.destroy();
  }

  #send(message: Json, method: string): Promise<Json> {
    return new Promise((resolve) => {
      this.#pending.set(message.id as number, { method, resolve });
      this.#socket.write(`${JSON.stringify(message)}\n`);
    });
  }

  #receive(message: unknown): void {
    if (Array.isArray(message)) {
      for (const item of message) this.#receiveOne(item as Json);
      this.#batches.shift()?.(message as Json[]);
      return;
    }
    this.#receiveOne(message as Json);
  }

  #receiveOne(message: Json): void {
    if ('method' in message) {
      check(validators.notification, message, 'notification envelope');
      const paramsOf = validators.notificationParams.get(String(message.method));
      // Clients ignore notifications they do not know; every v1 one is in the schema.
      if (paramsOf === undefined) violations.push(`notification ${message.method} not in schema`);
      else check(paramsOf, message.params, `params of ${message.method}`);
      this.notifications.push(message);
      this.#onNotification?.();
      return;
    }
    const pending = message.id === null ? undefined : this.#pending.get(message.id as number);
    if ('error' in message) {
      check(validators.error, message, `error response to ${pending?.method ?? 'no id'}`);
    } else {
      check(validators.success, message, `response to ${pending?.method}`);
      const resultOf = pending && validators.result.get(pending.method);
      if (resultOf) check(resultOf, message.result, `result of ${pending?.method}`);
      else violations.push(`a result for an unknown request ${JSON.stringify(message.id)}`);
    }
    if (pending === undefined) this.#errorsWithoutId.shift()?.(message);
    else {
      this.#pending.delete(message.id as number);
      pending.resolve(message);
    }
  }
}

/** Every JSON pointer of a loose spot: a schema that accepts any value. */
function looseSpots(value: unknown, pointer = ''): string[] {
  if (typeof value !== 'object' || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((item, i) => looseSpots(item, `${pointer}/${i}`));
  const node = value as Json;
  const spots: string[] = [];
  for (const [key, child] of Object.entries(node)) {
    const at = `${pointer}/${key}`;
    // Maps of names to schemas: their members are schemas, not schema keywords.
    if (key === 'methods' && pointer === '') {
      for (const [name, method] of Object.entries(child as Record<string, Json>)) {
        for (const part of ['params', 'result']) {
          if (isAnything(method[part])) spots.push(`${at}/${name}/${part}`);
          spots.push(...looseSpots(method[part], `${at}/${name}/${part}`));
        }
      }
      continue;
    }
    const isMap = ['properties', '$defs', 'notifications', 'envelope'].includes(key);
    if (isMap && typeof child === 'object' && child !== null) {
      for (const [name, schema] of Object.entries(child as Json)) {
        if (isAnything(schema)) spots.push(`${at}/${name}`);
        spots.push(...looseSpots(schema, `${at}/${name}`));
      }
    } else {
      if (['additionalProperties', 'items'].includes(key) && isAnything(child)) spots.push(at);
      spots.push(...looseSpots(child, at));
    }
  }
  return spots;
}

const CONSTRAINTS = [
  'type',
  'const',
  'enum',
  '$ref',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'properties',
];

function isAnything(schema: unknown): boolean {
  if (schema === true) return true;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return false;
  return !CONSTRAINTS.some((keyword) => keyword in schema);
}

function allowed(pointer: string, only?: string): boolean {
  return (only === undefined ? LOOSE_ALLOWED : [only]).some((pattern) =>
    new RegExp(`^${pattern.replace(/[$.]/g, '\\$&').replaceAll('*', '[^/]+')}$`).test(pointer),
  );
}

const nodeBinary = fileURLToPath(new URL('../../../node_modules/.bin/node', import.meta.url));
const daemonMain = fileURLToPath(new URL('../dist/main.js', import.meta.url));

// A 1×1 PNG.
const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('protocol v1 conformance against a real daemon', () => {
  let daemon: ChildProcess;
  let root: string;
  let socketPath: string;
  let space: string;
  const clients: SchemaClient[] = [];

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'repa-conformance-'));
    space = join(root, 'space');
    mkdirSync(join(space, 'notes'), { recursive: true });
    writeFileSync(join(space, 'notes', 'a.md'), '# Tides\n\nThe tide turns every six hours.\n');
    mkdirSync(join(root, 'agent'));
    mkdirSync(join(root, 'home'));
    const env: NodeJS.ProcessEnv = {};
    for (const [name, value] of Object.entries(process.env)) {
      if (!/_API_KEY$|_TOKEN$|^XDG_|^PI_|^VITEST|^NODE_OPTIONS$/.test(name)) env[name] = value;
    }
    daemon = spawn(
      nodeBinary,
      // Runs stay on the scripted model even after the login below gives Pi a real key.
      [
        daemonMain,
        '--app-dir',
        join(root, 'app'),
        '--agent-dir',
        join(root, 'agent'),
        '--model',
        'repa-offline',
      ],
      {
        env: { ...env, HOME: join(root, 'home'), PI_OFFLINE: '1' },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    socketPath = await new Promise<string>((resolve, reject) => {
      let out = '';
      daemon.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        const ready = /socket=(\S+)/.exec(out);
        if (ready?.[1]) resolve(ready[1]);
      });
      daemon.once('exit', (code) => reject(new Error(`the daemon exited with ${code}`)));
    });
  });

  afterAll(async () => {
    for (const client of clients) client.close();
    if (daemon !== undefined && daemon.exitCode === null) {
      const exited = new Promise((resolve) => daemon.once('exit', resolve));
      daemon.kill('SIGKILL');
      await exited;
    }
    rmSync(root, { recursive: true, force: true });
  });

  async function open(): Promise<SchemaClient> {
    const client = await SchemaClient.open(socketPath);
    clients.push(client);
    return client;
  }

  async function result(client: SchemaClient, method: string, params: unknown): Promise<Json> {
    const answer = await client.call(method, params);
    expect(answer, `${method}: ${JSON.stringify(answer)}`).toHaveProperty('result');
    return answer.result as Json;
  }

  function finished(runId: string) {
    return (n: Json) => {
      const params = n.params as { runId: string; event: { type: string; status?: string } };
      return (
        params.runId === runId &&
        params.event.type === 'status' &&
        ['succeeded', 'failed', 'cancelled', 'interrupted'].includes(params.event.status ?? '')
      );
    };
  }

  it('validates for real: a result that breaks the schema is a violation', () => {
    const validate = validators.result.get('run.get') as ValidateFunction;
    expect(validate({ run: { runId: 'r1', status: 'bogus' } })).toBe(false);
    expect(validators.params.get('run.list')?.({ limt: 5 })).toBe(false);
  });

  it('has no loose spot outside the commented allow-list', () => {
    const spots = looseSpots(doc);
    expect(spots.filter((pointer) => !allowed(pointer))).toEqual([]);
    // The allow-list stays short and true: every entry names a spot that exists.
    for (const pattern of LOOSE_ALLOWED) {
      expect(
        spots.some((pointer) => allowed(pointer, pattern)),
        pattern,
      ).toBe(true);
    }
  });

  it('drives every method with schema-valid messages both ways', async () => {
    const client = await open();
    const called = new Set<string>();
    const call = async (method: string, params: unknown) => {
      called.add(method);
      return result(client, method, params);
    };
    await call('initialize', {
      protocolVersions: ['v1'],
      client: { name: 'conformance', version: '1' },
    });
    await call('doctor', {});
    await call('models.list', { all: true });
    // Pi's own API-key login, its secret prompt answered over the same connection.
    const login = call('login.start', {
      provider: 'anthropic',
      type: 'api_key',
      loginId: 'login-1',
    });
    const prompt = await client.waitFor(
      (n) => n.method === 'login.progress' && (n.params as { kind: string }).kind === 'prompt',
    );
    expect(
      await call('login.answer', {
        loginId: 'login-1',
        promptId: (prompt.params as { promptId: string }).promptId,
        value: 'sk-conformance',
      }),
    ).toEqual({ accepted: true });
    // The key is stored; the daemon's --model still picks the next run's model.
    expect(await login).toMatchObject({
      connection: 'anthropic:auth-file',
      next: { model: 'repa-offline', source: 'daemon' },
    });
    // A login the learner closes before answering: cancelled, its start answered with `cancelled`.
    called.add('login.start');
    const closing = client.call('login.start', {
      provider: 'anthropic',
      type: 'api_key',
      loginId: 'login-2',
    });
    await client.waitFor((n) => {
      const params = n.params as { loginId?: string; kind?: string };
      return (
        n.method === 'login.progress' && params.loginId === 'login-2' && params.kind === 'prompt'
      );
    });
    expect(await call('login.cancel', { loginId: 'login-2' })).toEqual({ cancelled: true });
    expect(await closing).toMatchObject({ error: { data: { code: 'cancelled' } } });
    expect(await call('login.cancel', { loginId: 'login-2' })).toEqual({ cancelled: false });
    await call('space.open', { root: space });
    expect(await call('space.list', {})).toMatchObject({
      spaces: [{ root: space, missing: false }],
    });
    const { session } = (await call('session.create', { space, title: 'conformance' })) as {
      session: { sessionId: string };
    };
    const { sessionId } = session;
    await call('session.list', { space });
    // Following the session: its runs come as `session.run` notifications too (checked by schema).
    await call('session.subscribe', { space, sessionId });
    await call('files.list', { space });
    await call('files.read', { space, path: 'notes/a.md' });
    const submitted = (await call('run.submit', {
      space,
      sessionId,
      requestId: 'conformance-1',
      input: { type: 'text', text: 'Read notes/a.md and tell me about tides.' },
    })) as { run: { runId: string } };
    const runId = submitted.run.runId;
    await client.waitFor(finished(runId));
    await call('run.get', { runId });
    // The one naming rule, on the daemon's side: `latest` and a prefix name this run and session.
    expect(await call('run.resolve', { run: 'latest', space, sessionId })).toMatchObject({
      run: { runId },
    });
    expect(await call('session.resolve', { space, session: sessionId.slice(0, 8) })).toMatchObject({
      session: { sessionId },
    });
    await call('run.list', { space, sessionId, status: 'succeeded', limit: 10 });
    await call('run.subscribe', { runId });
    const cancelled = await client.call('run.cancel', { runId });
    called.add('run.cancel');
    expect('result' in cancelled || 'error' in cancelled).toBe(true);
    const retried = (await call('run.retry', { runId, requestId: 'conformance-2' })) as {
      run: { runId: string };
    };
    await client.waitFor(finished(retried.run.runId));
    // Only an interrupted or failed run resumes: a succeeded one is a schema-valid refusal.
    const resumed = await client.call('run.resume', { runId, requestId: 'conformance-5' });
    called.add('run.resume');
    expect(resumed).toMatchObject({ error: { data: { code: 'invalid_request' } } });
    // The input's optional members and a queued delivery, through the same schema both ways.
    const queued = (await call('run.submit', {
      space,
      sessionId,
      requestId: 'conformance-3',
      input: {
        type: 'text',
        text: 'What do the attached notes and this picture say?',
        images: [{ kind: 'data', data: PNG_1X1, mimeType: 'image/png' }],
        attachments: [{ path: 'notes/a.md' }],
      },
      delivery: 'queue',
    })) as { run: { runId: string } };
    await client.waitFor(finished(queued.run.runId));
    expect(
      client.notifications.some(
        (message) =>
          (message as { params?: { runId?: string; event?: { type?: string } } }).params?.event
            ?.type === 'sources-attached',
      ),
    ).toBe(true);
    const steer = await client.call('run.submit', {
      space,
      sessionId,
      requestId: 'conformance-4',
      input: { type: 'text', text: 'Steer into nothing.' },
      delivery: 'steer',
    });
    expect(steer).toMatchObject({ error: { data: { code: 'no_active_run' } } });
    // A save that waits for the learner (`tools.edits` ask for this run), refused with a reason.
    const asking = (await call('run.submit', {
      space,
      sessionId,
      requestId: 'conformance-6',
      input: { type: 'text', text: '*** Begin Patch\n*** Add File: notes/b.md\n+b\n*** End Patch' },
      overrides: { edits: 'ask' },
    })) as { run: { runId: string } };
    const request = await client.waitFor(
      (n) =>
        n.method === 'run.event' &&
        (n.params as { event: { type: string } }).event.type === 'approval-request',
    );
    const { approvalId } = (request.params as { event: { approvalId: string } }).event;
    expect(
      await call('run.approve', {
        runId: asking.run.runId,
        approvalId,
        answer: 'refuse',
        reason: 'Not now.',
      }),
    ).toMatchObject({ answered: true, approval: { decision: 'refused', reason: 'Not now.' } });
    await client.waitFor(finished(asking.run.runId));
    await call('session.history', { space, sessionId });
    expect(client.notifications.some((message) => message.method === 'session.run')).toBe(true);
    expect(await call('session.unsubscribe', { space, sessionId })).toEqual({ unsubscribed: true });
    await call('settings.get', { space, sessionId });
    await call('settings.set', {
      space,
      level: 'space',
      key: 'prompts.fileChanges',
      value: 'diff',
    });
    await call('settings.set', {
      space,
      sessionId,
      level: 'session',
      key: 'prompts.base',
      value: null,
      expectedRevision: 0,
    });
    await call('settings.reset', { space, level: 'space', key: 'prompts.fileChanges' });
    await call('context.get', { space });
    await call('context.set', {
      space,
      body: 'Tides turn every six hours.',
      sources: ['notes/a.md'],
      expectedRevision: null,
    });
    await call('context.get', { space, sessionId });
    const built = (await call('context.build', {
      space,
      buildId: 'conformance-build',
      sources: ['notes/a.md'],
    })) as { revision: string };
    expect(built.revision).toEqual(expect.any(String));
    expect(
      client.notifications.some(
        (message) => (message as { method?: string }).method === 'context.progress',
      ),
    ).toBe(true);
    await call('context.cancel', { buildId: 'conformance-build' });
    // A plain folder Repa made a space starts trusted (spec R13).
    expect(await call('space.trust', { space, trusted: true })).toMatchObject({
      trusted: true,
      wasTrusted: true,
    });
    expect(await call('session.rename', { space, sessionId, title: 'Tides' })).toMatchObject({
      session: { sessionId, title: 'Tides' },
    });
    expect(await call('models.next', { space, sessionId })).toMatchObject({
      choice: { model: 'repa-offline' },
    });
    expect(await call('login.logout', { provider: 'anthropic', space })).toMatchObject({
      removed: true,
    });
    expect(await call('run.diff', { runId })).toMatchObject({ runId, files: [] });
    expect(await call('run.rewind', { runId, preview: true })).toMatchObject({
      rewind: expect.any(Object),
    });
    expect(await call('session.export', { space, sessionId, format: 'markdown' })).toMatchObject({
      content: expect.stringContaining('Read notes/a.md and tell me about tides.'),
    });
    // A session this small has nothing to compact: a schema-valid refusal.
    const compacted = await client.call('session.compact', {
      space,
      sessionId,
      instructions: 'Keep the tides.',
    });
    called.add('session.compact');
    expect(compacted).toMatchObject({ error: { data: { code: 'invalid_request' } } });
    expect(await call('run.prune', { endedBefore: '2000-01-01T00:00:00Z' })).toEqual({
      pruned: 0,
      imagesRemoved: 0,
    });
    // An outside file granted to the space, listed and withdrawn.
    const book = join(root, 'book.md');
    writeFileSync(book, '# Chapter 3\n\nEnzymes lower the activation energy.\n');
    expect(await call('materials.add', { path: book, id: 'ch3', space })).toMatchObject({
      material: { id: 'ch3' },
    });
    await call('materials.list', { space });
    await call('materials.remove', { id: 'ch3' });
    // A local Pi package (a prompt template), added for the learner, listed and removed.
    const pkg = join(root, 'pkg');
    mkdirSync(join(pkg, 'prompts'), { recursive: true });
    writeFileSync(
      join(pkg, 'package.json'),
      '{"name":"conformance-pkg","keywords":["pi-package"]}',
    );
    writeFileSync(join(pkg, 'prompts', 'recap.md'), 'Recap the notes.\n');
    await call('packages.add', { source: pkg });
    await call('packages.list', { space });
    await call('packages.remove', { source: pkg });
    // Study cards in a note: due, rated, the rating taken back, progress and the Anki export.
    writeFileSync(join(space, 'notes', 'cards.md'), 'What turns every six hours?::The tide\n');
    const due = (await call('study.due', { space, limit: 5 })) as {
      cards: { id: string; front: string }[];
    };
    expect(due.cards.map((card) => card.front)).toEqual(['What turns every six hours?']);
    const card = due.cards[0]?.id as string;
    expect(await call('study.rate', { space, card, rating: 3, mode: 'flip' })).toMatchObject({
      card: { id: card, fsrs: { state: 'learning', reps: 1 } },
    });
    expect(await call('study.undo', { space })).toMatchObject({
      undone: { card, rating: 3 },
      fsrs: null,
    });
    expect(await call('study.status', { space })).toMatchObject({
      sources: [{ source: 'notes/cards.md', cards: 1, new: 1 }],
    });
    expect(await call('study.export', { space })).toMatchObject({ format: 'anki-text', cards: 1 });
    // Drafting cards: a draft run on the offline model, its checked cards, one saved as its save.
    const draft = (await call('study.draft', {
      space,
      sessionId,
      requestId: 'conformance-draft',
      passage: 'notes/a.md:3',
    })) as { run: { runId: string } };
    await client.waitFor(finished(draft.run.runId));
    const drafted = (await call('study.drafted', { runId: draft.run.runId })) as {
      cards: { id: string }[];
    };
    expect(drafted.cards).toHaveLength(1);
    expect(
      await call('study.accept', {
        runId: draft.run.runId,
        cards: [{ id: drafted.cards[0]?.id, back: '' }],
      }),
    ).toMatchObject({ note: 'cards/a.md', receipts: [{ operationId: `${draft.run.runId}-1` }] });
    expect(await call('session.delete', { space, sessionId })).toMatchObject({ sessionId });
    expect([...called].sort()).toEqual(Object.keys(doc.methods).sort());
    expect(client.notifications.length).toBeGreaterThan(0);
    expect(violations).toEqual([]);
  });

  it('answers every kind of bad input with schema-valid JSON-RPC errors', async () => {
    const fresh = await open();
    const early = await fresh.call('run.list', {});
    expect(early.error).toMatchObject({ code: -32000, data: { code: 'not_initialized' } });
    // What the schema refuses for initialize the daemon refuses as invalid params, naming the field.
    for (const params of [{}, { protocolVersions: [] }]) {
      const refused = await fresh.callInvalid('initialize', params);
      expect(refused.error).toMatchObject({ code: -32602, data: { code: 'invalid_request' } });
      expect(JSON.stringify(refused.error)).toContain('params.protocolVersions');
    }
    const unknownVersion = await fresh.call('initialize', { protocolVersions: ['v0'] });
    expect(unknownVersion.error).toMatchObject({ data: { code: 'unsupported_version' } });
    await result(fresh, 'initialize', { protocolVersions: ['v1'] });
    const unknown = await fresh.callInvalid('no.such.method', {});
    expect(unknown.error).toMatchObject({ code: -32601, data: { code: 'method_not_found' } });
    const typo = await fresh.callInvalid('run.list', { limt: 5 });
    expect(typo.error).toMatchObject({ code: -32602, data: { code: 'invalid_request' } });
    const badValue = await fresh.callInvalid('settings.set', {
      space,
      level: 'space',
      key: 'prompts.fileChanges',
      value: 'sometimes',
    });
    expect(badValue.error).toMatchObject({ code: -32602 });
    const noSpace = await fresh.callInvalid('settings.set', {
      level: 'space',
      key: 'prompts.append',
      value: '',
    });
    expect(noSpace.error).toMatchObject({ data: { code: 'invalid_request' } });
    const parse = await fresh.raw('{"jsonrpc":"2.0",\n');
    expect(parse.error).toMatchObject({ code: -32700 });
    const notRequest = await fresh.raw('{"jsonrpc":"1.0","id":"x","method":"run.list"}\n');
    expect(notRequest).toMatchObject({ id: 'x', error: { code: -32600 } });
    const empty = await fresh.raw('[]\n');
    expect(empty.error).toMatchObject({ code: -32600 });
    const answers = await fresh.batch([
      { jsonrpc: '2.0', id: 900, method: 'run.list', params: { limit: 1 } },
      { jsonrpc: '2.0', method: 'run.list', params: {} },
      { jsonrpc: '2.0', id: 901, method: 'no.such.method' },
    ]);
    expect(answers.map((answer) => answer.id).sort()).toEqual([900, 901]);
    expect(violations).toEqual([]);
  });
});
