import { normaliseAvailability } from './availability';

describe('normaliseAvailability', () => {
  it.each([
    ['InStock', 'in_stock'],
    ['https://schema.org/InStock', 'in_stock'],
    ['http://schema.org/InStoreOnly', 'in_stock'],
    ['OnlineOnly', 'in_stock'],
    ['https://schema.org/LimitedAvailability', 'in_stock'],
    ['OutOfStock', 'out_of_stock'],
    ['http://schema.org/SoldOut', 'out_of_stock'],
    ['Discontinued', 'out_of_stock'],
    ['https://schema.org/PreOrder', 'preorder'],
    ['PreSale', 'preorder'],
    ['BackOrder', 'backorder'],
    ['schema:InStock', 'in_stock'],
    ['https://www.schema.org/OutOfStock', 'out_of_stock'],
    [' instock ', 'in_stock'],
  ])('reads %j as %p', (value, expected) => {
    expect(normaliseAvailability(value)).toBe(expected);
  });

  it.each(['', 'Available', 'https://example.com/InStock', 'MadeToOrder'])(
    'reads %j as no availability',
    (value) => {
      expect(normaliseAvailability(value)).toBeNull();
    },
  );
});
