import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/**
 * The OpenAPI shapes of `pages` and `page_rule` (docs/pages.md, "Pages on a task" and "Page
 * rules"). Requests are checked by `PageTargetsValidator` and `validatePageRule`, which answer
 * 400 `Invalid pages: ...` and `Invalid page_rule: ...` rather than the 422 of field validation.
 */
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
  @ApiProperty({ enum: ['changed', 'contains', 'not_contains'] })
  type: 'changed' | 'contains' | 'not_contains';

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 200,
    description: 'For contains and not_contains (compared case-insensitively); none for changed',
  })
  text?: string;
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
