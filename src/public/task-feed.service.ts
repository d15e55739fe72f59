import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectConfig } from '../config/config-slice';
import { serverConfig, type ServerConfig } from '../config/server.config';
import type { ExecutionEntity } from '../executions/execution.entity';
import { toExecutionResponse } from '../executions/execution.mapper';
import { ExecutionRepository } from '../executions/execution.repository';
import { pagesWithHeaders } from '../pages/targets/pages-with-headers';
import type { TaskEntity } from '../tasks/task.entity';
import { PublicTaskRepository } from '../tasks/public-task.repository';
import { TASK_NOT_FOUND } from '../tasks/task-queries.service';
import { buildRssFeed, type RssItem } from './rss-feed.builder';

export const FEED_ITEM_LIMIT = 50;

/** The RSS feed of a public task: its executions whose condition was met, newest first. */
@Injectable()
export class TaskFeedService {
  constructor(
    private readonly tasks: PublicTaskRepository,
    private readonly executions: ExecutionRepository,
    @InjectConfig(serverConfig) private readonly server: ServerConfig,
  ) {}

  /**
   * Links are absolute, as feed readers need them, and start with `PUBLIC_URL`: never with what
   * the request's `Host` or `X-Forwarded-*` headers say (docs/api.md, "Other choices").
   */
  async renderFeed(taskId: string): Promise<string> {
    const origin = this.server.publicUrl;
    const task = await this.tasks.findPublic(taskId);
    if (!task) throw new NotFoundException(TASK_NOT_FOUND);
    // Served by ix_executions_met_task_id_created_at.
    const executions = await this.executions.listMet(taskId, FEED_ITEM_LIMIT, 0, true);
    const taskLink = `${origin}/api/v1/public/tasks/id/${task.id}`;
    const items = executions.map((execution) => toFeedItem(task, execution, taskLink));
    return buildRssFeed({
      title: task.name,
      link: taskLink,
      description: `Results of "${task.searchQuery}" that met the condition: ${task.conditionDescription}`,
      selfLink: `${origin}/tasks/${task.id}/rss`,
      lastBuildDate: items[0]?.pubDate ?? task.createdAt,
      items,
    });
  }
}

/**
 * Only what the public task view shows already (`toExecutionResponse` for a non-owner): answer,
 * reasoning and sources, no error details, nothing a page fetched with the owner's headers held.
 */
function toFeedItem(task: TaskEntity, execution: ExecutionEntity, taskLink: string): RssItem {
  const shown = toExecutionResponse(execution, {
    pagesWithHeaders: pagesWithHeaders(task.pages),
  });
  const parts = [shown.answer ?? ''];
  if (shown.reasoning) parts.push(`Reasoning: ${shown.reasoning}`);
  const sources = shown.grounding_sources ?? [];
  if (sources.length > 0) {
    parts.push(
      [
        'Sources:',
        ...sources.map((source) => `- ${source.title || source.uri} (${source.uri})`),
      ].join('\n'),
    );
  }
  return {
    title: `${task.name}: condition met`,
    link: taskLink,
    description: parts.join('\n\n'),
    guid: execution.id,
    pubDate: execution.completedAt ?? execution.createdAt,
  };
}
