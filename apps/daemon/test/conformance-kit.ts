import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

// What the conformance tests share: the published schema with an independent validator (Ajv,
// draft 2020-12, with formats), a raw client that validates every frame both ways and keeps each
// violation, the scan for loose (`{}`) spots, and the built daemon started on repa-offline.

/** A JSON object. */
export type Json = Record<string, unknown>;

const schemaPath = createRequire(import.meta.url).resolve('@repa/protocol/schema/v1.json');
/** The protocol's JSON Schema document, as published. */
export const doc = JSON.parse(readFileSync(schemaPath, 'utf8')) as {
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
export const LOOSE_ALLOWED = [
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

/** A validator for each envelope, and for each method's params and result and each notification. */
export const validators = {
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
export const violations: string[] = [];

function check(validate: ValidateFunction, value: unknown, what: string): boolean {
  if (validate(value)) return true;
  violations.push(`${what}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(value)}`);
  return false;
}

/** A raw JSON-RPC client over the unix socket that validates every frame both ways. */
export class SchemaClient {
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
export function looseSpots(value: unknown, pointer = ''): string[] {
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

/** Whether `pointer` is an allowed loose spot (or matches the one pattern `only`). */
export function allowed(pointer: string, only?: string): boolean {
  return (only === undefined ? LOOSE_ALLOWED : [only]).some((pattern) =>
    new RegExp(`^${pattern.replace(/[$.]/g, '\\$&').replaceAll('*', '[^/]+')}$`).test(pointer),
  );
}

const nodeBinary = fileURLToPath(new URL('../../../node_modules/.bin/node', import.meta.url));
const daemonMain = fileURLToPath(new URL('../dist/main.js', import.meta.url));

/**
 * Starts the built daemon on repa-offline with its app, agent and home folders in `root` and none
 * of this machine's keys or Pi settings; the process and its socket once it is ready.
 */
export async function startDaemon(
  root: string,
): Promise<{ daemon: ChildProcess; socketPath: string }> {
  mkdirSync(join(root, 'agent'));
  mkdirSync(join(root, 'home'));
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/_API_KEY$|_TOKEN$|^XDG_|^PI_|^VITEST|^NODE_OPTIONS$/.test(name)) env[name] = value;
  }
  const daemon = spawn(
    nodeBinary,
    // Runs stay on the scripted model even after a login gives Pi a real key.
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
  const socketPath = await new Promise<string>((resolve, reject) => {
    let out = '';
    daemon.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const ready = /socket=(\S+)/.exec(out);
      if (ready?.[1]) resolve(ready[1]);
    });
    daemon.once('exit', (code) => reject(new Error(`the daemon exited with ${code}`)));
  });
  return { daemon, socketPath };
}
