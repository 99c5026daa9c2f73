import { describe, expect, it } from 'vitest';
import { closest, didYouMean } from './did-you-mean.js';

describe('closest', () => {
  it('finds a typo, a swap of two letters and a start, and nothing far away', () => {
    expect(closest('setings', ['settings', 'sessions'])).toBe('settings');
    expect(closest('chta', ['chat', 'run'])).toBe('chat');
    expect(closest('sess', ['settings', 'sessions'])).toBe('sessions');
    expect(closest('frobnicate', ['run', 'chat', 'settings'])).toBeUndefined();
  });

  it('words the suggestion with a prefix', () => {
    expect(didYouMean('--spac', ['--space', '--session'])).toBe(" Did you mean '--space'?");
    expect(didYouMean('lst', ['list', 'show'], 'repa runs ')).toBe(
      " Did you mean 'repa runs list'?",
    );
    expect(didYouMean('zzz', ['list'])).toBe('');
  });
});
