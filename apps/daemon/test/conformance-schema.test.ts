// The conformance test's own tools, checked: the validator really refuses what the schema does not
// allow, and the schema keeps no loose (`{}`) spot outside the commented allow-list.
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { allowed, doc, LOOSE_ALLOWED, looseSpots, validators } from './conformance-kit.js';

describe('protocol v1 schema, as the conformance test reads it', () => {
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
});
