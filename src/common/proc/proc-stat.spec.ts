import { procStatField } from './proc-stat';

describe('procStatField', () => {
  // A thread whose command holds a space and a parenthesis: field 3 is its state.
  const stat = '4242 (node worker) x) S 1 4242 4242 0 -1 4194560 10 0 0 0 7 3 0 0 30 10 1';

  it('should number the fields as proc(5) does, after the command whatever it holds', () => {
    expect(procStatField(stat, 3)).toBe('S');
    expect(procStatField(stat, 14)).toBe('7');
    expect(procStatField(stat, 15)).toBe('3');
    expect(procStatField(stat, 19)).toBe('10');
  });

  it('should give nothing past the last field', () => {
    expect(procStatField(stat, 41)).toBeUndefined();
  });
});
