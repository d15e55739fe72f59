import { comparePageText, contentHash } from './page-comparison';

describe('comparePageText', () => {
  it('should call a first fetch new and an equal text same', () => {
    expect(comparePageText('a', null)).toEqual({ status: 'new', added: [], removed: [] });
    expect(comparePageText('a\nb', 'a\nb')).toEqual({
      status: 'same',
      added: [],
      removed: [],
    });
  });

  it('should list added and removed lines in document order, a new last line included', () => {
    const before = 'title\nprice 90\nfooter';
    const after = 'title\nprice 80\nfooter\nnew line';
    expect(comparePageText(after, before)).toEqual({
      status: 'changed',
      added: ['price 80', 'new line'],
      removed: ['price 90'],
    });
  });

  it('should find lines added or removed between equal starts and ends, repeats of their neighbours included', () => {
    const page = (middle: string[]) => ['head', 'x', ...middle, 'x', 'foot'].join('\n');
    expect(comparePageText(page(['x', 'new']), page([]))).toEqual({
      status: 'changed',
      added: ['new', 'x'],
      removed: [],
    });
    expect(comparePageText(page([]), page(['gone', 'x']))).toEqual({
      status: 'changed',
      added: [],
      removed: ['gone', 'x'],
    });
    expect(comparePageText(page(['b']), page(['a']))).toEqual({
      status: 'changed',
      added: ['b'],
      removed: ['a'],
    });
  });

  it('should keep the first 50 lines of each kind, each at most 500 characters', () => {
    const after = Array.from({ length: 60 }, (_, index) => `${index} ${'x'.repeat(600)}`).join(
      '\n',
    );
    const { added } = comparePageText(after, 'old');
    expect([added.length, added[0].length, added[0].startsWith('0 ')]).toEqual([50, 500, true]);
  });

  it('should list the lines one text lacks, with their repeats and in document order, when the texts share almost nothing', () => {
    const lines = (prefix: string) =>
      Array.from({ length: 20_000 }, (_, index) => `${prefix}${index}`);
    // One line in both, once before and twice after: its second copy is a line before lacks.
    const result = comparePageText(
      ['same', 'same', ...lines('b')].join('\n'),
      ['same', ...lines('a')].join('\n'),
    );
    expect(result).toEqual({
      status: 'changed',
      added: ['same', ...lines('b').slice(0, 49)],
      removed: lines('a').slice(0, 50),
    });
  });

  it('should hash the text with SHA-256 in hex', () => {
    expect(contentHash('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});
