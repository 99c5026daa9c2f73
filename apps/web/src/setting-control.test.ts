import { SETTING_ITEMS } from '@repa/protocol';
import { describe, expect, it } from 'vitest';
import { describeValue } from './setting-control.js';

const itemOf = (key: string) =>
  SETTING_ITEMS.find((item) => item.key === key) as (typeof SETTING_ITEMS)[number];

describe('describeValue', () => {
  it('says an empty list in the words of its item: no tools for tools.enabled, none for steps', () => {
    expect(describeValue(itemOf('tools.enabled'), [])).toBe('no tools');
    expect(describeValue(itemOf('study.learningSteps'), [])).toBe('none');
    expect(describeValue(itemOf('study.learningSteps'), ['1m', '10m'])).toBe('1m, 10m');
  });
});
