import { Controller, Get, Header, Param } from '@nestjs/common';
import { ApiProduces, ApiTags } from '@nestjs/swagger';
import { Public } from '../common/decorators/auth.decorators';
import { UuidParamPipe } from '../common/pipes/uuid-param.pipe';
import { IpRateLimit } from '../common/rate-limit/rate-limit.decorator';
import { RequestOrigin } from './request-origin.decorator';
import { TaskFeedService } from './task-feed.service';

/** `/tasks/{id}/rss`: outside `/api/v1` so feed URLs stay short (contract section 2). */
@ApiTags('public')
@Controller('tasks')
export class TaskFeedController {
  constructor(private readonly feeds: TaskFeedService) {}

  @Get(':id/rss')
  @Public()
  @IpRateLimit('task-rss', 10)
  @Header('Content-Type', 'application/rss+xml; charset=utf-8')
  @ApiProduces('application/rss+xml')
  rss(@Param('id', UuidParamPipe) id: string, @RequestOrigin() origin: string): Promise<string> {
    return this.feeds.renderFeed(id, origin);
  }
}
