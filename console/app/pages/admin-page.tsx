import type { ComponentChildren, JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../api';
import { formatDate, formatUsd } from '../format';
import { EXECUTION_STATUSES, JOB_STATES, labelOf, USER_STATES } from '../labels';
import type { Execution, Me } from '../types';
import {
  Badge,
  ConfirmButton,
  DataTable,
  LoadState,
  MetBadge,
  Notice,
  PageHeading,
  Stat,
  useTitle,
  type Column,
  type NoticeValue,
} from '../ui';
import { useLoad, type Loaded } from '../use-load';

interface Stats {
  users: { total: number; active: number };
  tasks: { total: number; active: number; paused: number; completed: number };
  executions_24h: { total: number; success: number; failed: number };
  notifications_24h: { total: number; failed: number };
}

interface AdminUser {
  id: string;
  email: string | null;
  username: string | null;
  is_admin: boolean;
  state: string;
  created_at: string;
  task_count: number;
}

interface AdminError extends Execution {
  task_name: string;
  user_id: string;
}

interface Job {
  job_id: string;
  task_id: string;
  state: string;
  start_after: string;
  retry_count: number;
}

interface UserUsage {
  user_id: string;
  email: string | null;
  executions: number;
  llm_calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
}

const LIMIT = 25;

/** The operator's view: platform stats, users, recent runs, errors, jobs and usage by user. */
export function AdminPage(props: { me: Me }): JSX.Element {
  useTitle('Admin');
  const [stats, reloadStats] = useLoad('admin:stats', () => api<Stats>('GET', '/admin/stats'));
  const [users, reloadUsers] = useLoad('admin:users', () =>
    api<{ users: AdminUser[] }>('GET', `/admin/users?limit=${LIMIT}`),
  );
  const [executions, reloadExecutions] = useLoad('admin:executions', () =>
    api<{ executions: Execution[] }>('GET', `/admin/executions?limit=${LIMIT}`),
  );
  const [errors, reloadErrors] = useLoad('admin:errors', () =>
    api<{ errors: AdminError[] }>('GET', `/admin/errors?limit=${LIMIT}`),
  );
  const [jobs, reloadJobs] = useLoad('admin:jobs', () =>
    api<{ jobs: Job[] }>('GET', `/admin/scheduler/jobs?limit=${LIMIT}`),
  );
  const [usage, reloadUsage] = useLoad('admin:usage', () =>
    api<{ users: UserUsage[] }>('GET', `/admin/usage?limit=${LIMIT}`),
  );
  const [notice, setNotice] = useState<NoticeValue | null>(null);

  /** Deactivates or reactivates `user`, then says what happened. */
  async function changeState<R>(
    user: AdminUser,
    action: 'deactivate' | 'reactivate',
    done: (result: R) => string,
  ): Promise<void> {
    setNotice(null);
    try {
      const result = await api<R>('PATCH', `/admin/users/${user.id}/${action}`);
      setNotice({ tone: 'good', text: done(result) });
      void reloadUsers();
      void reloadStats();
    } catch (error) {
      setNotice({ tone: 'bad', text: (error as Error).message });
    }
  }

  const userColumns: Array<Column<AdminUser>> = [
    { header: 'Email', class: 'wrap', cell: (user) => user.email ?? '—' },
    { header: 'Username', class: 'wrap', cell: (user) => user.username ?? '—' },
    { header: 'Role', cell: (user) => (user.is_admin ? 'Administrator' : 'User') },
    { header: 'State', cell: (user) => <Badge value={user.state} labels={USER_STATES} /> },
    { header: 'Tasks', cell: (user) => user.task_count },
    { header: 'Created', class: 'nowrap', cell: (user) => formatDate(user.created_at) },
    {
      header: 'Action',
      cell: (user) => {
        const name = user.email ?? user.id;
        if (user.id === props.me.id) return <span class="muted">—</span>;
        if (user.state === 'deactivated')
          return (
            <button
              type="button"
              class="small"
              aria-label={`Reactivate ${name}`}
              onClick={() =>
                void changeState(
                  user,
                  'reactivate',
                  () =>
                    `${name} reactivated: their credentials work again; their tasks stay paused until they resume them.`,
                )
              }
            >
              Reactivate
            </button>
          );
        return (
          <ConfirmButton
            label="Deactivate"
            accessibleName={`Deactivate ${name}`}
            class="danger small"
            question={`Deactivate ${name}? Their API keys and sign-ins stop working at once, all their tasks are paused and their pending notifications are cancelled. Their data is kept, and you can reactivate them later; their tasks then stay paused until they resume them.`}
            confirmLabel="Deactivate"
            onConfirm={() =>
              void changeState<{ tasks_paused: number }>(
                user,
                'deactivate',
                (result) => `${name} deactivated; ${result.tasks_paused} task(s) paused.`,
              )
            }
          />
        );
      },
    },
  ];

  return (
    <section aria-labelledby="admin-title" class="admin">
      <div class="page-head">
        <PageHeading id="admin-title">Admin</PageHeading>
      </div>
      <Notice notice={notice} />
      <AdminSection title="Platform" state={stats} retry={reloadStats}>
        {(data: Stats) => (
          <dl class="stats">
            <Stat label="Users active / all" value={`${data.users.active} / ${data.users.total}`} />
            <Stat
              label="Tasks active / paused / completed"
              value={`${data.tasks.active} / ${data.tasks.paused} / ${data.tasks.completed}`}
            />
            <Stat
              label="Executions 24 h (failed)"
              value={`${data.executions_24h.total} (${data.executions_24h.failed})`}
            />
            <Stat
              label="Notifications 24 h (failed)"
              value={`${data.notifications_24h.total} (${data.notifications_24h.failed})`}
            />
          </dl>
        )}
      </AdminSection>
      <TableSection
        title="Users"
        state={users}
        retry={reloadUsers}
        rows={(data) => data.users}
        rowKey={(user) => user.id}
        columns={userColumns}
      />
      <TableSection
        title="Recent executions"
        state={executions}
        retry={reloadExecutions}
        rows={(data) => data.executions}
        rowKey={(execution) => execution.id}
        columns={EXECUTION_COLUMNS}
      />
      <TableSection
        title="Errors"
        state={errors}
        retry={reloadErrors}
        rows={(data) => data.errors}
        rowKey={(error) => error.id}
        columns={ERROR_COLUMNS}
      />
      <TableSection
        title="Scheduler jobs"
        state={jobs}
        retry={reloadJobs}
        rows={(data) => data.jobs}
        rowKey={(job) => job.job_id}
        columns={JOB_COLUMNS}
      />
      <TableSection
        title="Usage by user this month"
        label="Usage by user"
        state={usage}
        retry={reloadUsage}
        rows={(data) => data.users}
        rowKey={(user) => user.user_id}
        columns={USAGE_COLUMNS}
      />
    </section>
  );
}

function AdminSection<T>(props: {
  title: string;
  state: Loaded<T>;
  retry: () => Promise<void>;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ComponentChildren;
}): JSX.Element {
  const id = `admin-${props.title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section class="card" aria-labelledby={id}>
      <h2 id={id}>{props.title}</h2>
      <LoadState
        state={props.state}
        what={props.title.toLowerCase()}
        retry={() => void props.retry()}
        isEmpty={props.isEmpty}
        empty={<p>Nothing here yet.</p>}
      >
        {props.children}
      </LoadState>
    </section>
  );
}

/** A section whose answer is a list: one table, labelled like the section unless `label` says. */
function TableSection<T, R>(props: {
  title: string;
  label?: string;
  state: Loaded<T>;
  retry: () => Promise<void>;
  rows: (data: T) => R[];
  rowKey: (row: R) => string;
  columns: Array<Column<R>>;
}): JSX.Element {
  return (
    <AdminSection
      title={props.title}
      state={props.state}
      retry={props.retry}
      isEmpty={(data) => props.rows(data).length === 0}
    >
      {(data) => (
        <DataTable
          label={props.label ?? props.title}
          rows={props.rows(data)}
          rowKey={props.rowKey}
          columns={props.columns}
        />
      )}
    </AdminSection>
  );
}

const EXECUTION_COLUMNS: Array<Column<Execution>> = [
  { header: 'When', class: 'nowrap', cell: (execution) => formatDate(execution.created_at) },
  { header: 'Task', class: 'wrap', cell: (execution) => execution.task_id },
  {
    header: 'Status',
    cell: (execution) => <Badge value={execution.status} labels={EXECUTION_STATUSES} />,
  },
  { header: 'Condition', cell: (execution) => <MetBadge met={execution.condition_met} /> },
  { header: 'Cost', cell: (execution) => formatUsd(execution.usage?.cost_usd) },
];

const ERROR_COLUMNS: Array<Column<AdminError>> = [
  { header: 'When', class: 'nowrap', cell: (error) => formatDate(error.created_at) },
  { header: 'Task', class: 'wrap', cell: (error) => error.task_name },
  { header: 'User', class: 'wrap', cell: (error) => error.user_id },
  { header: 'Error', class: 'wrap', cell: (error) => error.error_message ?? '—' },
];

const JOB_COLUMNS: Array<Column<Job>> = [
  { header: 'Job', class: 'wrap', cell: (job) => job.job_id },
  { header: 'Task', class: 'wrap', cell: (job) => job.task_id },
  { header: 'State', cell: (job) => labelOf(JOB_STATES, job.state) },
  { header: 'Starts after', class: 'nowrap', cell: (job) => formatDate(job.start_after) },
  { header: 'Retries', cell: (job) => job.retry_count },
];

const USAGE_COLUMNS: Array<Column<UserUsage>> = [
  { header: 'User', class: 'wrap', cell: (user) => user.email ?? user.user_id },
  { header: 'Executions', cell: (user) => user.executions },
  { header: 'Model calls', cell: (user) => user.llm_calls },
  { header: 'Tokens in / out', cell: (user) => `${user.input_tokens} / ${user.output_tokens}` },
  { header: 'Cost', cell: (user) => formatUsd(user.cost_usd) },
];
