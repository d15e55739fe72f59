import { ApiProperty } from '@nestjs/swagger';
import { TimestampProperty } from '../common/openapi/schema-properties';
import type { PageResultLine } from './page-result-line';

/** One entry of `page_results` in executions and previews (docs/pages.md, "Page results"). */
export class PageResultResponse implements PageResultLine {
  @ApiProperty()
  url: string;

  @ApiProperty({ type: String, nullable: true, description: 'The URL read, after redirects' })
  final_url: string | null;

  @ApiProperty({ enum: ['new', 'same', 'changed', 'error'] })
  status: PageResultLine['status'];

  @ApiProperty({ type: 'integer', nullable: true })
  http_status: number | null;

  @ApiProperty({ type: String, nullable: true })
  title: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why the page could not be read (status error); owner only: null for others',
  })
  error: string | null;

  @ApiProperty({ type: [String], description: 'Lines that appeared since the last good fetch' })
  added: string[];

  @ApiProperty({ type: [String], description: 'Lines that went away since the last good fetch' })
  removed: string[];

  @TimestampProperty()
  fetched_at: string;
}
