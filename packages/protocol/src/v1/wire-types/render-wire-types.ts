// Renders src/v1/wire-types.generated.ts: an interface per wire schema, each member carrying its
// schema's `.describe()` text as TSDoc, so that text is written once (in the schema). Run by the
// package's `schema` script (through render-wire-types.test.ts, which also fails while the
// checked-in file is stale); wire-types.test.ts checks each interface against its schema.
import type { z } from 'zod';
import { v1Methods, v1Notifications } from '../methods.js';
import { WIRE_TYPES } from './wire-type-table.js';

type Schema = z.ZodType;

/** The parts of a zod definition the renderer reads. */
interface Def {
  type: string;
  innerType?: Schema;
  element?: Schema;
  options?: Schema[];
  shape?: Record<string, Schema>;
  catchall?: Schema;
  values?: unknown[];
  entries?: Record<string, string | number>;
  keyType?: Schema;
  valueType?: Schema;
  partial?: boolean;
}

const WIDTH = 100;
const OPEN_MEMBERS = 'Members a newer server may add.';

const defOf = (schema: Schema): Def => schema._zod.def as unknown as Def;
const spaces = (count: number): string => ' '.repeat(count);
const quote = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const keyOf = (key: string): string => (/^[A-Za-z_$][\w$]*$/.test(key) ? key : quote(key));
const pascal = (method: string): string =>
  method
    .split('.')
    .map((part) => `${part[0]?.toUpperCase()}${part.slice(1)}`)
    .join('');

/** A TSDoc comment at `indent`: one line when it fits, else wrapped at the page width. */
function docLines(text: string, indent: number): string[] {
  const pad = spaces(indent);
  const one = `${pad}/** ${text} */`;
  if (one.length <= WIDTH) return [one];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && pad.length + 3 + line.length + 1 + word.length > WIDTH) {
      lines.push(`${pad} * ${line}`);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(`${pad} * ${line}`);
  return [`${pad}/**`, ...lines, `${pad} */`];
}

class Renderer {
  readonly #names = new Map<unknown, string>();

  constructor() {
    for (const { name, schema } of WIRE_TYPES) {
      this.#names.set(schema._zod.def, name);
    }
  }

  /** The name of a named schema, or `undefined`. */
  nameOf(schema: Schema): string | undefined {
    return this.#names.get(schema._zod.def);
  }

  /**
   * The parts of a type joined by `|` (optional, nullable, enums and unions flattened); `root`
   * writes out a named schema instead of naming it.
   */
  parts(schema: Schema, indent: number, root = false): string[] {
    if (!root && this.nameOf(schema)) return [this.type(schema, indent)];
    const def = defOf(schema);
    if (def.type === 'optional')
      return [...this.parts(def.innerType as Schema, indent), 'undefined'];
    if (def.type === 'nullable') return [...this.parts(def.innerType as Schema, indent), 'null'];
    if (def.type === 'union') return (def.options ?? []).flatMap((o) => this.parts(o, indent));
    if (def.type === 'enum') return Object.values(def.entries ?? {}).map((value) => literal(value));
    if (def.type === 'literal') return (def.values ?? []).map((value) => literal(value));
    return [this.type(schema, indent, root)];
  }

  /** {@link parts}, where `unknown` swallows the rest (`unknown | undefined` is `unknown`). */
  union(schema: Schema, indent: number, root = false): string[] {
    const parts = this.parts(schema, indent, root);
    return parts.includes('unknown') ? ['unknown'] : parts;
  }

  /** The TypeScript type of `schema`; a multi-line object literal has its members at `indent + 2`. */
  type(schema: Schema, indent: number, root = false): string {
    const name = root ? undefined : this.nameOf(schema);
    if (name) return name;
    const def = defOf(schema);
    switch (def.type) {
      case 'string':
      case 'number':
      case 'boolean':
      case 'unknown':
      case 'never':
      case 'null':
        return def.type;
      case 'literal':
      case 'enum':
      case 'optional':
      case 'nullable':
      case 'union':
        return this.union(schema, indent).join(' | ');
      case 'array': {
        const element = this.type(def.element as Schema, indent);
        return /^[\w.]+$|^\{[\s\S]*\}$|^Record<.*>$/.test(element)
          ? `${element}[]`
          : `(${element})[]`;
      }
      case 'record': {
        const key = this.type(def.keyType as Schema, indent);
        const record = `Record<${key}, ${this.type(def.valueType as Schema, indent)}>`;
        return def.partial ? `Partial<${record}>` : record;
      }
      case 'object':
        return `{\n${this.members(schema, indent + 2).join('\n')}\n${spaces(indent)}}`;
      default:
        throw new Error(`render-wire-types: no TypeScript for a zod '${def.type}'.`);
    }
  }

  /** The member lines of an object schema at `indent`, with their TSDoc. */
  members(schema: Schema, indent: number): string[] {
    const def = defOf(schema);
    const lines: string[] = [];
    for (const [key, member] of Object.entries(def.shape ?? {})) {
      const description = member.description ?? innerDescription(member);
      if (description) lines.push(...docLines(description, indent));
      const optional = defOf(member).type === 'optional';
      lines.push(...this.member(`${keyOf(key)}${optional ? '?' : ''}:`, member, indent));
    }
    if (def.catchall && defOf(def.catchall).type === 'unknown') {
      lines.push(...docLines(OPEN_MEMBERS, indent), `${spaces(indent)}[member: string]: unknown;`);
    }
    return lines;
  }

  /** One member `head type;`: on one line, hugging a lone object (`{…} | null`), or one part a line. */
  member(head: string, schema: Schema, indent: number): string[] {
    const pad = spaces(indent);
    const parts = this.union(schema, indent);
    const multiLine = parts.some((part) => part.includes('\n'));
    const line = `${pad}${head} ${parts.join(' | ')};`;
    const hugs = parts.length === 1 || (parts.length === 2 && parts[1] === 'null');
    if ((!multiLine && line.length <= WIDTH) || (multiLine && hugs)) return line.split('\n');
    const options = this.union(schema, indent + 4);
    const last = options.length - 1;
    return [
      `${pad}${head}`,
      ...options.map((part, i) => `${pad}  | ${part}${i === last ? ';' : ''}`),
    ]
      .join('\n')
      .split('\n');
  }

  /** `export interface` (an object) or `export type` (anything else) named `name`. */
  declaration(name: string, schema: Schema, doc: string | undefined): string {
    let shape = schema;
    const def = defOf(shape);
    if (def.type === 'union' && def.options?.length === 1 && def.options[0]) shape = def.options[0];
    const lines = doc ? docLines(doc, 0) : [];
    const shapeDef = defOf(shape);
    if (shapeDef.type === 'object') {
      const members = this.members(shape, 2);
      if (members.length === 0 && shapeDef.catchall) {
        return [...lines, `export type ${name} = Record<string, never>;`].join('\n');
      }
      return [...lines, `export interface ${name} {`, ...members, '}'].join('\n');
    }
    const types = this.union(schema, 2, true);
    const one = `export type ${name} = ${types.join(' | ')};`;
    if (one.length <= WIDTH || types.length === 1) return [...lines, one].join('\n');
    return `${[...lines, `export type ${name} =`, ...types.map((t) => `  | ${t}`)].join('\n')};`;
  }
}

/** The description of an optional or nullable member's inner schema (when it has none itself). */
function innerDescription(schema: Schema): string | undefined {
  const def = defOf(schema);
  if (def.type !== 'optional' && def.type !== 'nullable') return undefined;
  const inner = def.innerType as Schema;
  return inner.description ?? innerDescription(inner);
}

function literal(value: unknown): string {
  return typeof value === 'string' ? quote(value) : String(value);
}

/** The text of src/v1/wire-types.generated.ts. */
export function renderWireTypes(): string {
  const renderer = new Renderer();
  const blocks: string[] = [];
  for (const { name, schema, doc, view } of WIRE_TYPES) {
    blocks.push(renderer.declaration(name, view ?? schema, doc ?? schema.description));
  }
  const methodLines: string[] = [];
  for (const [method, { description, params, result }] of Object.entries(v1Methods)) {
    const names: string[] = [];
    for (const [part, schema] of [
      ['Params', params],
      ['Result', result],
    ] as const) {
      const known = renderer.nameOf(schema);
      const name = known ?? `${pascal(method)}${part}`;
      if (!known) {
        blocks.push(renderer.declaration(name, schema, `\`${method}\` ${part.toLowerCase()}.`));
      }
      names.push(name);
    }
    methodLines.push(
      ...docLines(description, 2),
      `  ${keyOf(method)}: { params: ${names[0]}; result: ${names[1]} };`,
    );
  }
  blocks.push(
    [
      '/** Every v1 method name with the interfaces of its params and result. */',
      'export interface V1MethodTypes {',
      ...methodLines,
      '}',
    ].join('\n'),
  );
  const notificationLines = Object.entries(v1Notifications).flatMap(([notification, schema]) => {
    const name = renderer.nameOf(schema);
    if (!name) throw new Error(`render-wire-types: name the params of ${notification}.`);
    const doc = schema.description ? docLines(schema.description, 2) : [];
    return [...doc, `  ${keyOf(notification)}: ${name};`];
  });
  blocks.push(
    [
      '/** Every v1 notification name with the interface of its params. */',
      'export interface V1NotificationTypes {',
      ...notificationLines,
      '}',
    ].join('\n'),
  );
  return `${[HEADER, ...blocks].join('\n\n')}\n`;
}

const HEADER = [
  '// generated — do not edit. Written by `pnpm --filter @repa/protocol schema` from the zod schemas',
  "// (src/v1/wire-types/render-wire-types.ts); each member's TSDoc is its schema's `.describe()`.",
  '// biome-ignore-all format: generated',
].join('\n');
