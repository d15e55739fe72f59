import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/**
 * The OpenAPI shapes of `pages` and `page_rule` (docs/pages.md, "Pages on a task" and "Page
 * rules"). Requests are checked by `PageTargetsValidator` and `validatePageRule`, which answer
 * 400 `Invalid pages: ...` and `Invalid page_rule: ...` rather than the 422 of field validation.
 */
/** `items` of a page (docs/pages.md, "Items and feeds"). */
export class PageItemsDto {
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 200,
    description:
      'On an HTML page, the CSS selector of its items (required there: without it the page is the ' +
      'error `not a feed`); feeds (RSS, Atom, JSON Feed) need none',
  })
  selector?: string;
}

/** A value a page reads (docs/pages.md, "Values read from pages"). */
export class PageValueDto {
  @ApiProperty({
    pattern: '^[a-z][a-z0-9_]{0,39}$',
    description: "Unique across the task's pages",
  })
  name: string;

  @ApiProperty({
    enum: ['number', 'text', 'price', 'availability', 'json'],
    description:
      'number: the first number in the first match of selector (on text/plain pages, of the ' +
      'whole text); text: the text of the first match of selector; price: the product price ' +
      'from JSON-LD, microdata or price meta tags (with selector, the first number in its ' +
      'first match); availability: in_stock, out_of_stock, preorder or backorder from JSON-LD ' +
      'or microdata; json: the first node of path on a JSON page',
  })
  from: 'number' | 'text' | 'price' | 'availability' | 'json';

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 200,
    description: 'Required with text; optional with number and price; refused otherwise',
  })
  selector?: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 200,
    description: 'An RFC 9535 JSONPath, such as $.data.version: required with json only',
  })
  path?: string;
}

export class PageTargetDto {
  @ApiProperty({ maxLength: 2048, description: 'An http or https URL without user info' })
  url: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 200,
    description:
      'A CSS selector: the text read is that of every matching element. Type, class, id and ' +
      'attribute selectors, the combinators, :first-child, :last-child, :nth-child(an+b) and ' +
      ':not() of one of those, at most 10 in a list',
  })
  selector?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    maxProperties: 10,
    description:
      'Request headers for a page behind a cookie or a token: secrets, shown to the owner only',
  })
  headers?: Record<string, string>;

  @ApiPropertyOptional({
    type: PageItemsDto,
    description:
      'Read the page as a list of items (an HTML list by items.selector, or a feed): it is changed ' +
      'when it shows items never seen before, listed in page_results[].new_items. Not with selector',
  })
  items?: PageItemsDto;

  @ApiPropertyOptional({
    type: [PageValueDto],
    minItems: 1,
    maxItems: 10,
    description:
      "Values read from the page at every check: at most 10 across the task's pages, refused " +
      "with output_schema. They fill the execution's values and changes",
  })
  values?: PageValueDto[];

  @ApiPropertyOptional({
    enum: ['http', 'browser'],
    description:
      'How the page is loaded: http (the default) or browser, a headless Chromium that runs its scripts',
  })
  render?: 'http' | 'browser';

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 200,
    description:
      'With render browser: a CSS selector (the subset of selector) the page is read once it matches',
  })
  wait_for?: string;
}

export class PageRuleDto {
  @ApiProperty({
    enum: ['changed', 'new_items', 'contains', 'not_contains', 'below', 'above', 'equals'],
  })
  type: 'changed' | 'new_items' | 'contains' | 'not_contains' | 'below' | 'above' | 'equals';

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 200,
    description:
      'For contains and not_contains (compared case-insensitively); none for changed and new_items ' +
      '(which needs a page with items)',
  })
  text?: string;

  @ApiPropertyOptional({
    description: "For below, above and equals: the name of one of the pages' values",
  })
  value?: string;

  @ApiPropertyOptional({
    type: Number,
    description: 'For below and above: met when the value is a number strictly below or above it',
  })
  than?: number;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }],
    description:
      'For equals: met when the value equals it (strings trimmed, compared case-insensitively)',
  })
  to?: string | number | boolean;
}

/** `pages` in requests and answers; the class is named in `@ApiExtraModels`. */
export function PagesProperty(options: { required: boolean; description: string }) {
  return applyDecorators(
    ApiProperty({
      required: options.required,
      type: [PageTargetDto],
      minItems: 1,
      maxItems: 10,
      nullable: true,
      description: options.description,
    }),
  );
}

export function PageRuleProperty(options: { required: boolean; description: string }) {
  return applyDecorators(
    ApiProperty({
      required: options.required,
      type: PageRuleDto,
      nullable: true,
      description: options.description,
    }),
  );
}
