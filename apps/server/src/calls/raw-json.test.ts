import { showText } from '@nest/contracts';
import { describe, expect, it } from 'vitest';
import { oneByte } from './raw-json.js';

describe('oneByte', () => {
  it('keeps every text as it is, Latin-1 or not', () => {
    for (const text of ['', 'Nest A01', 'Café ü ÿ', '机场 A01', 'a😀b', '\u0100', showText('机场 A01', 'en')]) expect(oneByte(text)).toBe(text);
  });
});
