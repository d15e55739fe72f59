import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../common/decorators/auth.decorators';
import { ApiRoute } from '../common/openapi/api-route.decorator';
import { UuidParamPipe } from '../common/pipes/uuid-param.pipe';
import { IpRateLimit } from '../common/rate-limit/rate-limit.decorator';
import { TaskFeedService } from './task-feed.service';

/** `/tasks/{id}/rss`: outside `/api/v1` so feed URLs stay short. */
@ApiTags('public')
@Controller('tasks')
export class TaskFeedController {
  constructor(private readonly feeds: TaskFeedService) {}

  /**
   * The content type is set once the feed exists: `@Header()` would be applied before the handler
   * runs and so would also label a 404's JSON body as RSS.
   */
  @Get(':id/rss')
  @Public()
  @IpRateLimit('task-rss', 10)
  @ApiRoute({
    summary: "RSS 2.0 feed of a public task's met-condition executions",
    response: {
      description: 'The feed',
      content: { 'application/rss+xml': { schema: { type: 'string' } } },
    },
    errors: [404, 422],
  })
  async rss(
    @Param('id', UuidParamPipe) id: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    const feed = await this.feeds.renderFeed(id);
    response.type('application/rss+xml; charset=utf-8');
    return feed;
  }
}
