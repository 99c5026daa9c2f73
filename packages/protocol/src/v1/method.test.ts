import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { method } from './method.js';
import { v1Methods } from './methods.js';

describe('method', () => {
  it("builds a method's params and result schemas on first use, once each", () => {
    const built: string[] = [];
    const spec = method({
      description: 'A method.',
      params: () => {
        built.push('params');
        return z.strictObject({ id: z.string() });
      },
      result: () => {
        built.push('result');
        return z.looseObject({ ok: z.boolean() });
      },
    });
    expect(built).toEqual([]);
    expect(spec.params).toBe(spec.params);
    expect(built).toEqual(['params']);
    expect(spec.result.safeParse({ ok: true }).success).toBe(true);
    expect(spec.result).toBe(spec.result);
    expect(built).toEqual(['params', 'result']);
  });

  it('leaves every v1 method unbuilt until its schemas are read', () => {
    for (const [name, spec] of Object.entries(v1Methods)) {
      for (const part of ['params', 'result'] as const) {
        expect(typeof Object.getOwnPropertyDescriptor(spec, part)?.get, `${name} ${part}`).toBe(
          'function',
        );
      }
    }
  });
});
