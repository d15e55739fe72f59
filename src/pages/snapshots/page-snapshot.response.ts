import { ApiProperty } from '@nestjs/swagger';
import { TimestampProperty } from '../../common/openapi/schema-properties';
import type { PageSnapshotEntity } from './page-snapshot.entity';
import type { PageStatus, PageTarget } from '../page.types';

/** One page of `GET /api/v1/tasks/{id}/pages` (docs/pages.md, "Snapshots"). */
export class PageSnapshotResponse {
  @ApiProperty()
  url: string;

  @ApiProperty({
    enum: ['new', 'same', 'changed', 'error'],
    nullable: true,
    description: "The latest fetch's status; null when the page was never fetched",
  })
  status: PageStatus | null;

  @ApiProperty({ type: 'integer', nullable: true, description: "The latest fetch's HTTP status" })
  http_status: number | null;

  @ApiProperty({ type: String, nullable: true, description: 'The last good fetch: its title' })
  title: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The last good fetch: its text' })
  text: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The hex SHA-256 of `text`' })
  content_hash: string | null;

  @TimestampProperty({ nullable: true, description: 'When the last good fetch was made' })
  fetched_at: string | null;

  @TimestampProperty({ nullable: true, description: 'When the text last changed' })
  changed_at: string | null;
}

/** The snapshots of a task's pages in the task's order; a page never fetched has null fields. */
export function toPageSnapshotResponses(
  pages: readonly PageTarget[],
  snapshots: readonly PageSnapshotEntity[],
): PageSnapshotResponse[] {
  const byUrl = new Map(snapshots.map((snapshot) => [snapshot.url, snapshot]));
  return pages.map(({ url }) => {
    const snapshot = byUrl.get(url);
    return {
      url,
      status: snapshot?.status ?? null,
      http_status: snapshot?.httpStatus ?? null,
      title: snapshot?.title ?? null,
      text: snapshot?.text ?? null,
      content_hash: snapshot?.contentHash ?? null,
      fetched_at: snapshot?.fetchedAt?.toISOString() ?? null,
      changed_at: snapshot?.changedAt?.toISOString() ?? null,
    };
  });
}
