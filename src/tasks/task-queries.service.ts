import { Injectable, NotFoundException } from '@nestjs/common';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { ExecutionRepository } from '../executions/execution.repository';
import { PageScreenshotRepository } from '../pages/browser/screenshots/page-screenshot.repository';
import { PageSnapshotReads } from '../pages/snapshots/page-snapshot.reads';
import type { PageSnapshotResponse } from '../pages/snapshots/page-snapshot.response';
import type { TaskEntity } from './task.entity';
import type { TaskState } from './task-state';
import { toTaskResponse, type TaskResponse } from './task.mapper';
import { TaskRepository } from './task.repository';

export const TASK_NOT_FOUND = 'Task not found';
export const SCREENSHOT_NOT_FOUND = 'Screenshot not found';

/** The reads of tasks: the caller's own, a public one, and the answers that show them. */
@Injectable()
export class TaskQueries {
  constructor(
    private readonly taskRows: TaskRepository,
    private readonly executions: ExecutionRepository,
    private readonly pageSnapshots: PageSnapshotReads,
    private readonly screenshots: PageScreenshotRepository,
  ) {}

  async listOwn(
    caller: AuthenticatedUser,
    state?: TaskState,
    page: { limit?: number; offset?: number } = {},
  ): Promise<TaskResponse[]> {
    const tasks = await this.taskRows.listOwned(caller.id, state, page);
    return tasks.map(({ task, lastExecution }) => toTaskResponse(task, 'owner', lastExecution));
  }

  /** Owner: the full task. Anyone else: the scrubbed view of a public task, or 404. */
  async getVisible(caller: AuthenticatedUser | undefined, id: string): Promise<TaskResponse> {
    const found = await this.taskRows.findById(id);
    if (!found) throw new NotFoundException(TASK_NOT_FOUND);
    const viewer = caller?.id === found.task.userId ? 'owner' : 'public';
    if (viewer === 'public' && !found.task.isPublic) throw new NotFoundException(TASK_NOT_FOUND);
    return toTaskResponse(found.task, viewer, found.lastExecution);
  }

  async findOwned(caller: AuthenticatedUser, id: string): Promise<TaskEntity> {
    const task = await this.taskRows.findOwned(id, caller.id);
    if (!task) throw new NotFoundException(TASK_NOT_FOUND);
    return task;
  }

  /** Owner only: the last good fetch of each of the task's pages, in the task's page order. */
  async pagesOf(caller: AuthenticatedUser, id: string): Promise<PageSnapshotResponse[]> {
    return this.pageSnapshots.ofTask(await this.findOwned(caller, id));
  }

  /**
   * Owner only: the PNG of the last good browser read of the task's page at `index` (from 0, in
   * the task's page order; docs/pages.md, "Screenshots"). 404 `Screenshot not found` when the
   * page has none, is not read in a browser, or there is no such page.
   */
  async screenshotOf(caller: AuthenticatedUser, id: string, index: string): Promise<Buffer> {
    const task = await this.findOwned(caller, id);
    const page = /^\d{1,2}$/.test(index) ? task.pages?.[Number(index)] : undefined;
    // A page no longer read in a browser shows no screenshot of when it was.
    const png =
      page?.render === 'browser' ? await this.screenshots.findPng(task.id, page.url) : null;
    if (png === null) throw new NotFoundException(SCREENSHOT_NOT_FOUND);
    return png;
  }

  /** The task as its owner sees it, its last execution embedded. */
  async toResponse(task: TaskEntity): Promise<TaskResponse> {
    const [lastExecution] = task.lastExecutionId
      ? await this.executions.findByIds([task.lastExecutionId])
      : [];
    return toTaskResponse(task, 'owner', lastExecution ?? null);
  }
}
