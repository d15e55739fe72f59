import { cleanText, cleanValue } from './provider-output';

describe('provider output cleaning', () => {
  it('should remove NUL and lone surrogates when a string holds them', () => {
    expect(cleanText('a\u0000b\ud800c\udfffd')).toBe('abcd');
  });

  it('should keep surrogate pairs when they are whole', () => {
    expect(cleanText('ok 🙂 \ud83d\ude00')).toBe('ok 🙂 😀');
  });

  it('should clean keys and nested values when given an object', () => {
    const date = new Date('2026-01-01T00:00:00Z');
    expect(
      cleanValue({ 'k\u0000': ['x\ud800', { y: 'z\u0000' }], n: 1, at: date, none: null }),
    ).toEqual({
      k: ['x', { y: 'z' }],
      n: 1,
      at: date,
      none: null,
    });
  });
});
