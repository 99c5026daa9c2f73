import type { z } from 'zod';

/**
 * One settings item: the one declaration of its key, the type of its value, its default and what
 * it does. The settings store, `settings.set`'s schema and every client's help read it from here.
 */
export interface SettingItem<T = unknown> {
  /** Dotted key, `<namespace>.<name>`, e.g. `prompts.base`. */
  readonly key: string;
  /** A short name for people, e.g. `Base system prompt`: the label of a settings screen's control. */
  readonly label: string;
  /** What the item controls, for people: command help and settings screens. */
  readonly description: string;
  /** Every value stored at any level must satisfy this schema (JSON data only). */
  readonly schema: z.ZodType<T>;
  /** The built-in value used when no level overrides the item. */
  readonly defaultValue: T;
  /** The values it takes in a few words, e.g. `off | sandboxed`, `1–86400`, `null or text`. */
  readonly values: string;
  /**
   * True when the item changes what runs or what the model is told (tools, model, thinking level,
   * prompt text, instruction files): an untrusted space's own overrides of it have no effect and a
   * space or session write of it is refused with `space_untrusted` (spec R13). False: the item can
   * only switch sources off, change how much a notice says, or narrow what runs (`study.mode`).
   */
  readonly requiresTrust: boolean;
  /** The only level whose value applies (`daemon.idleMinutes`: the application's); absent: all. */
  readonly appliesAt?: 'application';
}

/** An item as declared below: `values` is worked out from the schema unless given. */
type ItemDeclaration<T> = Omit<SettingItem<T>, 'values' | 'requiresTrust'> & {
  readonly values?: string;
  readonly requiresTrust?: boolean;
};

/** An item declared once: its allowed values worked out from its schema unless given. */
export function item<T>(declaration: ItemDeclaration<T>): SettingItem<T> {
  const { values = valuesOf(declaration.schema), requiresTrust = false } = declaration;
  return Object.freeze({ ...declaration, values, requiresTrust });
}

/** The allowed values of a schema in a few words: enum options, booleans, ranges, `null or …`. */
function valuesOf(schema: z.ZodType): string {
  const def = schema._zod.def as unknown as {
    type: string;
    innerType?: z.ZodType;
    element?: z.ZodType;
    entries?: Record<string, string>;
  };
  switch (def.type) {
    case 'nullable':
      return `null or ${valuesOf(def.innerType as z.ZodType)}`;
    case 'optional':
      return valuesOf(def.innerType as z.ZodType);
    case 'enum':
      return Object.values(def.entries ?? {}).join(' | ');
    case 'boolean':
      return 'true | false';
    case 'string':
      return 'text';
    case 'number': {
      const { minValue, maxValue } = schema as z.ZodNumber;
      const bound = (value: number | null) =>
        value === null || !Number.isFinite(value) ? undefined : String(value);
      const [min, max] = [bound(minValue), bound(maxValue)];
      return min && max ? `${min}–${max}` : min ? `≥ ${min}` : max ? `≤ ${max}` : 'a number';
    }
    case 'array':
      return `a list of ${valuesOf(def.element as z.ZodType)}`;
    default:
      return 'JSON';
  }
}
