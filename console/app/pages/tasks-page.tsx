import type { JSX } from 'preact';
import { useEffect } from 'preact/hooks';
import { api } from '../api';
import { formatDate } from '../format';
import { EXECUTION_STATUSES, TASK_STATES } from '../labels';
import { navigate } from '../router';
import type { Task } from '../types';
import { Badge, DataTable, LoadState, MetBadge, PageHeading, useTitle, type Column } from '../ui';
import { useLoad } from '../use-load';

/**
 * Marks the frame the table is rendered in; `bench/console-bench.ts` measures from the list's
 * answer arriving (the browser's resource timing) to this mark.
 */
const RENDERED_MARK = 'tasks-table-rendered';

function loadTasks(state: string): Promise<Task[]> {
  return api<Task[]>('GET', `/api/v1/tasks${state ? `?state=${state}` : ''}`);
}

export function TasksPage(props: { state: string }): JSX.Element {
  useTitle('Tasks');
  const [tasks, reload] = useLoad(`tasks:${props.state}`, () => loadTasks(props.state));
  return (
    <section aria-labelledby="tasks-title">
      <div class="page-head">
        <PageHeading id="tasks-title">Tasks</PageHeading>
        <a class="button primary" href="#/new">
          New task
        </a>
      </div>
      <div class="toolbar">
        <label for="state-filter">State</label>
        <select
          id="state-filter"
          value={props.state}
          onChange={(event) =>
            navigate(
              event.currentTarget.value ? `#/tasks?state=${event.currentTarget.value}` : '#/tasks',
            )
          }
        >
          <option value="">All</option>
          {Object.entries(TASK_STATES).map(([state, label]) => (
            <option key={state} value={state}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <LoadState
        state={tasks}
        what="tasks"
        retry={() => void reload()}
        isEmpty={(list) => list.length === 0}
        empty={
          <p>
            {props.state ? `No ${props.state} tasks.` : 'No tasks yet.'}{' '}
            <a href="#/new">Create a task</a> to start monitoring.
          </p>
        }
      >
        {(list) => <TaskTable tasks={list} />}
      </LoadState>
    </section>
  );
}

const TASK_COLUMNS: Array<Column<Task>> = [
  { header: 'Name', class: 'wrap', cell: (task) => <a href={`#/tasks/${task.id}`}>{task.name}</a> },
  { header: 'State', cell: (task) => <Badge value={task.state} labels={TASK_STATES} /> },
  {
    header: 'Last run',
    cell: (task) =>
      task.last_execution ? (
        <>
          <Badge value={task.last_execution.status} labels={EXECUTION_STATUSES} />{' '}
          <span class="nowrap">{formatDate(task.last_execution.created_at)}</span>
        </>
      ) : (
        <span class="muted">Never</span>
      ),
  },
  { header: 'Next run', class: 'nowrap', cell: (task) => formatDate(task.next_run) },
  { header: 'Condition', cell: (task) => <MetBadge met={task.last_execution?.condition_met} /> },
];

function TaskTable(props: { tasks: Task[] }): JSX.Element {
  useEffect(() => {
    requestAnimationFrame(() => performance.mark(RENDERED_MARK));
  }, [props.tasks]);
  return (
    <DataTable label="Tasks" rows={props.tasks} rowKey={(task) => task.id} columns={TASK_COLUMNS} />
  );
}
