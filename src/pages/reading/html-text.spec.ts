import { scanHtml } from './html-text';

describe('scanHtml', () => {
  const list =
    '<body><h2>Sizes</h2><ul class="sizes"><li>S</li><li class="x">M</li><li>L</li></ul>' +
    '<p>note</p><ul><li>one</li><li class="x">two</li></ul><p class="x">end</p></body>';

  it.each([
    ['the last child of each parent', 'li:last-child', 'L\ntwo'],
    ['elements that are not the last child', 'li:not(:last-child)', 'S\nM\none'],
    ['descendants of a last child', 'ul:last-child li, body > :last-child', 'end'],
    [
      'descendants of an element that is not the last child',
      'ul:not(:last-child) li',
      'S\nM\nL\none\ntwo',
    ],
    ['the next sibling', 'h2 + ul li:first-child, li.x + li', 'S\nL'],
    ['every later sibling', 'h2 ~ p, li.x ~ li', 'L\nnote\nend'],
    ['a sibling after a descendant', 'ul.sizes ~ ul > li:nth-child(2)', 'two'],
    ['a negated class', 'li:not(.x)', 'S\nL\none'],
    ['counted children', 'li:nth-child(odd)', 'S\nL\none'],
    ['attributes', '[class^="siz"] > li[class~=x], p[class="x"]', 'M\nend'],
  ])('should read %s', (_kind, selector, selected) => {
    expect(scanHtml(list, selector).selected).toBe(selected);
  });

  it('should match nothing with a selector outside the subset pages accept', () => {
    expect(scanHtml(list, 'ul:has(li.x)')).toEqual({
      text: 'Sizes\nS\nM\nL\nnote\none\ntwo\nend',
      title: null,
      selected: null,
    });
  });

  it('should read a million nested elements', () => {
    const html = `${'<div>'.repeat(1_000_000)}deep${'</div>'.repeat(1_000_000)}`;
    expect(scanHtml(html, 'div:last-child > div:first-child')).toEqual({
      text: 'deep',
      title: null,
      selected: 'deep',
    });
  });

  it('should find the second of 80,000 siblings', () => {
    const items = Array.from({ length: 80_000 }, (_, index) => `<li>item ${index}</li>`);
    expect(scanHtml(`<ul>${items.join('')}</ul>`, 'li:nth-child(2)').selected).toBe('item 1');
  });
});
