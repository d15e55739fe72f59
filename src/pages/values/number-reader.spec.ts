import { readNumber } from './number-reader';

const NBSP = '\u00A0';
const NNBSP = '\u202F';

describe('readNumber', () => {
  it.each([
    // The examples of docs/pages.md, "Reading numbers".
    ['1,299.00', 1299],
    ['1.299,00 €', 1299],
    ['1 299', 1299],
    ['12,50', 12.5],
    ['1,299', 1299],
    ['10.000', 10000],
    ['0.999', 0.999],
    ['$ 49.99', 49.99],
    ['-3,5 %', -3.5],
    ['1.234.567', 1234567],
    // en-US and en-GB.
    ['$1,234,567.89', 1234567.89],
    ['Price: $49', 49],
    ['£1,299.00 inc. VAT', 1299],
    // en-IN groups by two above the thousands: the last mark is the decimal one all the same.
    ['₹12,34,567.89', 1234567.89],
    ['₹1,23,456', 123456],
    // de-DE, es-ES, it-IT, nl-NL, pt-BR.
    ['1.234.567,89 €', 1234567.89],
    ['1234,50 €', 1234.5],
    ['€ 1.234,56', 1234.56],
    ['R$ 1.234.567,89', 1234567.89],
    // fr-FR with narrow and ordinary no-break spaces.
    [`1${NNBSP}234${NNBSP}567,89${NBSP}€`, 1234567.89],
    [`1${NBSP}234,50 €`, 1234.5],
    // de-CH groups with apostrophes, typed or typographic.
    ["CHF 1'234'567.89", 1234567.89],
    ['CHF 1\u2019234.50', 1234.5],
    ["CHF-1'234.50", -1234.5],
    // ja-JP.
    ['￥1,234,568', 1234568],
    ['1,980円（税込）', 1980],
    // ru-RU, pl-PL, sv-SE.
    [`1${NBSP}234${NBSP}567,89${NBSP}₽`, 1234567.89],
    [`1${NBSP}234,56${NBSP}zł`, 1234.56],
    [`\u22121${NBSP}234,50${NBSP}kr`, -1234.5],
    // A minus counts only directly before the first digit.
    ['-$1,234.50', 1234.5],
    ['- 5', 5],
    ['-0', 0],
    // A space groups only before exactly three digits; otherwise the number ends before it.
    ['2 50 items', 2],
    ['1 2345', 1],
    // A mark not followed by a digit ends the number.
    ['Version 2.', 2],
    ['3, 4 and 5', 3],
    // One mark with three digits after it groups, unless only zeros stand before it.
    ['0,500 kg', 0.5],
    ['1,2345', 1.2345],
    ['12.5', 12.5],
    ['In stock: 17 left', 17],
  ])('reads %j as %p', (text, expected) => {
    expect(readNumber(text)).toBe(expected);
  });

  it.each(['', 'no digits here', '€ –', '.'])('finds no number in %j', (text) => {
    expect(readNumber(text)).toBeNull();
  });
});
