import { ApiProperty } from '@nestjs/swagger';
import { TimestampProperty } from '../../common/openapi/schema-properties';
import type { PageRender } from '../page.types';
import type { PageResultLine } from './page-result-line';

/**
 * One entry of `page_results` in executions and previews (docs/pages.md, "Page results"): a
 * `PageResultLine`, whose lines non-owners of a page fetched with headers see as null.
 */
export class PageResultResponse implements Omit<PageResultLine, 'added' | 'removed'> {
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

  @TimestampProperty()
  fetched_at: string;
}
