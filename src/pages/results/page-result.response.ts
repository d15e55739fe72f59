import { ApiProperty } from '@nestjs/swagger';
import { TimestampProperty } from '../../common/openapi/schema-properties';
import type { PageRender } from '../page.types';
import type { PageResultLine } from './page-result-line';
import type { PageValue } from '../page.types';

/** An item of a list or a feed (docs/pages.md, "Items and feeds"). */
export class PageItemResponse {
  @ApiProperty({ description: 'Its text (HTML) or its title (feeds), at most 300 characters' })
  title: string;

  @ApiProperty({ type: String, nullable: true, description: 'Its link, resolved; null without' })
  url: string | null;
}

/**
 * One entry of `page_results` in executions and previews (docs/pages.md, "Page results"): a
 * `PageResultLine`, whose lines non-owners of a page fetched with headers see as null.
 */
export class PageResultResponse implements Omit<PageResultLine, 'added' | 'removed' | 'new_items'> {
  @ApiProperty()
  url: string;

  @ApiProperty({ enum: ['http', 'browser'], description: 'How the page was loaded' })
  render: PageRender;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The URL read, after redirects; null for non-owners of a page with headers',
  })
  final_url: string | null;

  @ApiProperty({ enum: ['new', 'same', 'changed', 'error'] })
  status: PageResultLine['status'];

  @ApiProperty({ type: 'integer', nullable: true })
  http_status: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Null for non-owners of a page with headers',
  })
  title: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why the page could not be read (status error); owner only: null for others',
  })
  error: string | null;

  @ApiProperty({
    type: [String],
    nullable: true,
    description:
      'Lines that appeared since the last good fetch; null for non-owners of a page with headers',
  })
  added: string[] | null;

  @ApiProperty({
    type: [String],
    nullable: true,
    description:
      'Lines that went away since the last good fetch; null for non-owners of a page with headers',
  })
  removed: string[] | null;

  @ApiProperty({
    type: [PageItemResponse],
    nullable: true,
    description:
      'Of a page with items: the first 50 new items in the page’s order ([] when none); null for other pages and for non-owners of a page with headers',
  })
  new_items: PageItemResponse[] | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
    nullable: true,
    description:
      "The page's declared values by name, each read or null; null when it declares none, and for non-owners of a page with headers",
  })
  values: Record<string, PageValue> | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: {
      type: 'string',
      enum: ['not found', 'not a number', 'not a value', 'page error'],
    },
    nullable: true,
    description: 'Why each null value is null; null when the page declares no values',
  })
  value_errors: Record<string, string> | null;

  @TimestampProperty()
  fetched_at: string;
}
