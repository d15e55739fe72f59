import { comparePageText, contentHash } from './page-comparison';

const snapshot = (text: string) => ({ text, title: null, contentHash: contentHash(text) });

describe('comparePageText', () => {
  it('should call a first fetch new and an equal text same', () => {
    expect(comparePageText('a', null)).toEqual({ status: 'new', added: [], removed: [] });
    expect(comparePageText('a\nb', snapshot('a\nb'))).toEqual({
      status: 'same',
      added: [],
      removed: [],
    });
  });

  it('should list added and removed lines in document order, a new last line included', () => {
    const before = 'title\nprice 90\nfooter';
    const after = 'title\nprice 80\nfooter\nnew line';
    expect(comparePageText(after, snapshot(before))).toEqual({
      status: 'changed',
      added: ['price 80', 'new line'],
      removed: ['price 90'],
    });
  });

  it('should keep the first 50 lines of each kind, each at most 500 characters', () => {
    const after = Array.from({ length: 60 }, (_, index) => `${index} ${'x'.repeat(600)}`).join(
      '\n',
    );
    const { added } = comparePageText(after, snapshot('old'));
    expect([added.length, added[0].length, added[0].startsWith('0 ')]).toEqual([50, 500, true]);
  });

  it('should still list the lines when the texts share almost nothing', () => {
    const line = (prefix: string, index: number) => `${prefix}${index}`;
    const before = Array.from({ length: 6_000 }, (_, index) => line('a', index)).join('\n');
    const after = Array.from({ length: 6_000 }, (_, index) => line('b', index)).join('\n');
    const result = comparePageText(after, snapshot(before));
    expect([result.added[0], result.removed[0], result.added.length]).toEqual(['b0', 'a0', 50]);
  });

  it('should hash the text with SHA-256 in hex', () => {
    expect(contentHash('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});
