import type { JSX } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { AlertPolicyFields } from '../alert-policy-fields';
import { alertPolicyBody, alertPolicyValuesOf, type AlertPolicyValues } from '../alert-policy-form';
import { api, fieldErrors } from '../api';
import type { Channel } from '../channel';
import { CHANNELS, newConfig, type ChannelValues } from '../channels';
import { NOTIFY_BEHAVIORS } from '../labels';
import { navigate } from '../router';
import type { NotifyBehavior, PageResult, Preview, Suggestion, Task } from '../types';
import {
  Field,
  LoadState,
  MetBadge,
  PageHeading,
  Sources,
  useFocusOnRefusal,
  useTitle,
  Values,
} from '../ui';
import { useLoad } from '../use-load';
import { HeadersEditor } from '../headers-editor';
import { PageFields } from '../page-fields';
import { pagesBody, pagesValuesOf, type PagesValues } from '../page-form';
import { PageResults } from '../page-results';
import { TaskNotFound } from './task-page';

interface FormValues {
  name: string;
  search_query: string;
  condition_description: string;
  notify_behavior: NotifyBehavior;
  state: 'active' | 'paused';
  output_schema: string;
  evidence: string;
  /** Per channel type: its config (kept whole, so a webhook's secret survives an edit), or off. */
  notifications: Record<string, ChannelValues | null>;
  pages: PagesValues;
  alert_policy: AlertPolicyValues;
}

function json(value: unknown): string {
  return value === null || value === undefined ? '' : JSON.stringify(value, null, 2);
}

function valuesOf(task: Task | null): FormValues {
  return {
    name: task?.name ?? '',
    search_query: task?.search_query ?? '',
    condition_description: task?.condition_description ?? '',
    notify_behavior: task?.notify_behavior ?? 'once',
    state: 'active',
    output_schema: json(task?.output_schema),
    evidence: json(task?.evidence),
    notifications: Object.fromEntries(
      CHANNELS.map((channel) => [
        channel.type,
        task?.notifications.find((config) => config.type === channel.type) ?? null,
      ]),
    ),
    pages: pagesValuesOf(task),
    alert_policy: alertPolicyValuesOf(task),
  };
}

class JsonFieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** A JSON textarea's value: null when blank. */
function parseJsonField(field: string, text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new JsonFieldError(field, `Not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * The request body for create (`POST`) or update (`PUT`). `pages` and `page_rule` are sent when
 * set, and as null on update to clear what the task had; `alert_policy` likewise.
 */
function bodyOf(values: FormValues, task: Task | null): Record<string, unknown> {
  const creating = task === null;
  const outputSchema = parseJsonField('output_schema', values.output_schema);
  const evidence = parseJsonField('evidence', values.evidence);
  const notifications = Object.values(values.notifications)
    .filter((config): config is ChannelValues => config !== null)
    .map((config) =>
      Object.fromEntries(Object.entries(config).filter(([, value]) => value !== '')),
    );
  const body: Record<string, unknown> = {
    name: values.name,
    search_query: values.search_query,
    condition_description: values.condition_description,
    notify_behavior: values.notify_behavior,
    notifications,
  };
  if (creating) {
    // Blank on create: the API's defaults (`New Monitor`, the search query).
    if (values.name.trim() === '') delete body.name;
    if (values.condition_description.trim() === '') delete body.condition_description;
    body.state = values.state;
    if (outputSchema !== null) body.output_schema = outputSchema;
    if (evidence !== null) body.evidence = evidence;
  } else {
    body.output_schema = outputSchema;
    body.evidence = evidence;
  }
  const alertPolicy = alertPolicyBody(values.alert_policy, values.notify_behavior);
  if (alertPolicy !== null || task?.alert_policy) body.alert_policy = alertPolicy;
  const { pages, page_rule } = pagesBody(values.pages);
  if (pages !== null || task?.pages) body.pages = pages;
  if (page_rule !== null || task?.page_rule) body.page_rule = page_rule;
  return body;
}

/** Create a task (`#/new`) or edit one (`#/tasks/<id>/edit`). */
export function TaskFormPage(props: { taskId?: string }): JSX.Element {
  const { taskId } = props;
  const [task, reload] = useLoad(`form:${taskId ?? 'new'}`, () =>
    taskId ? api<Task>('GET', `/api/v1/tasks/${taskId}`) : Promise.resolve(null),
  );
  useTitle(taskId ? 'Edit task' : 'New task');
  return (
    <section aria-labelledby="form-title">
      <div class="page-head">
        <PageHeading id="form-title">{taskId ? 'Edit task' : 'New task'}</PageHeading>
        {taskId && <a href={`#/tasks/${taskId}`}>Back to the task</a>}
      </div>
      <LoadState
        state={task}
        what="the task"
        retry={() => void reload()}
        notFound={<TaskNotFound />}
      >
        {(loaded) => <TaskForm key={loaded?.id ?? 'new'} task={loaded} />}
      </LoadState>
    </section>
  );
}

function TaskForm(props: { task: Task | null }): JSX.Element {
  const creating = props.task === null;
  const [values, setValues] = useState<FormValues>(() => valuesOf(props.task));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<'save' | 'suggest' | 'preview' | null>(null);
  const [prompt, setPrompt] = useState('');
  const [preview, setPreview] = useState<PreviewWithPages | null>(null);
  const form = useRef<HTMLFormElement>(null);
  useFocusOnRefusal(form, errors);

  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]): void =>
    setValues((current) => ({ ...current, [key]: value }));

  async function run(
    kind: 'save' | 'suggest' | 'preview',
    action: () => Promise<void>,
  ): Promise<void> {
    setBusy(kind);
    setErrors({});
    try {
      await action();
    } catch (error) {
      setErrors(
        error instanceof JsonFieldError ? { [error.field]: error.message } : fieldErrors(error),
      );
    } finally {
      setBusy(null);
    }
  }

  const suggest = (): Promise<void> =>
    run('suggest', async () => {
      const suggestion = await api<Suggestion>('POST', '/api/v1/tasks/suggest', { prompt });
      setValues((current) => ({
        ...current,
        name: suggestion.name,
        search_query: suggestion.search_query,
        condition_description: suggestion.condition_description,
        notify_behavior: suggestion.notify_behavior,
      }));
    });

  const runPreview = (): Promise<void> =>
    run('preview', async () => {
      setPreview(null);
      const outputSchema = parseJsonField('output_schema', values.output_schema);
      const { pages } = pagesBody(values.pages);
      setPreview(
        await api<PreviewWithPages>('POST', '/api/v1/tasks/preview', {
          search_query: values.search_query,
          condition_description: values.condition_description || undefined,
          ...(outputSchema === null ? {} : { output_schema: outputSchema }),
          ...(pages === null ? {} : { pages }),
        }),
      );
    });

  const save = (event: Event): Promise<void> => {
    event.preventDefault();
    return run('save', async () => {
      const body = bodyOf(values, props.task);
      const saved = creating
        ? await api<Task>('POST', '/api/v1/tasks', body)
        : await api<Task>('PUT', `/api/v1/tasks/${props.task!.id}`, body);
      navigate(`#/tasks/${saved.id}`);
    });
  };

  return (
    <div class="form-layout">
      <form
        ref={form}
        class="card"
        onSubmit={(event) => void save(event)}
        noValidate
        aria-label="Task"
      >
        <fieldset class="suggest">
          <legend>Describe what to watch</legend>
          <Field
            id="suggest-prompt"
            label="In your own words"
            error={errors.prompt}
            hint="Suggest fills in the fields below from this description."
          >
            {(attributes) => (
              <textarea
                {...attributes}
                rows={2}
                value={prompt}
                onInput={(event) => setPrompt(event.currentTarget.value)}
              />
            )}
          </Field>
          <button
            type="button"
            onClick={() => void suggest()}
            disabled={busy !== null || prompt.trim() === ''}
          >
            {busy === 'suggest' ? 'Suggesting…' : 'Suggest'}
          </button>
        </fieldset>

        <Field id="task-name" label="Name" error={errors.name}>
          {(attributes) => (
            <input
              {...attributes}
              value={values.name}
              maxLength={200}
              onInput={(event) => set('name', event.currentTarget.value)}
            />
          )}
        </Field>
        <Field
          id="task-query"
          label="Search query"
          error={errors.search_query}
          hint="10 to 500 characters."
        >
          {(attributes) => (
            <textarea
              {...attributes}
              rows={2}
              value={values.search_query}
              onInput={(event) => set('search_query', event.currentTarget.value)}
            />
          )}
        </Field>
        <Field
          id="task-condition"
          label="Condition"
          error={errors.condition_description}
          hint="When is it met? 10 to 500 characters; blank: the search query."
        >
          {(attributes) => (
            <textarea
              {...attributes}
              rows={2}
              value={values.condition_description}
              onInput={(event) => set('condition_description', event.currentTarget.value)}
            />
          )}
        </Field>
        <div class="field-row">
          <Field id="task-notify" label="Notify" error={errors.notify_behavior}>
            {(attributes) => (
              <select
                {...attributes}
                value={values.notify_behavior}
                onChange={(event) =>
                  set('notify_behavior', event.currentTarget.value as NotifyBehavior)
                }
              >
                {Object.entries(NOTIFY_BEHAVIORS).map(([behavior, label]) => (
                  <option key={behavior} value={behavior}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {creating && (
            <Field id="task-state" label="Start" error={errors.state}>
              {(attributes) => (
                <select
                  {...attributes}
                  value={values.state}
                  onChange={(event) =>
                    set('state', event.currentTarget.value as 'active' | 'paused')
                  }
                >
                  <option value="active">Active</option>
                  <option value="paused">Paused</option>
                </select>
              )}
            </Field>
          )}
        </div>

        <PageFields
          values={values.pages}
          errors={errors}
          onChange={(pages) => set('pages', pages)}
        />

        <details class="advanced" open={Boolean(values.output_schema || values.evidence)}>
          <summary>Values and evidence</summary>
          <Field
            id="task-schema"
            label="Output schema (JSON)"
            error={errors.output_schema}
            hint='Values every check extracts, e.g. {"type":"object","properties":{"price":{"type":"number"}}}. Blank: none.'
          >
            {(attributes) => (
              <textarea
                {...attributes}
                class="code"
                rows={6}
                spellcheck={false}
                value={values.output_schema}
                onInput={(event) => set('output_schema', event.currentTarget.value)}
              />
            )}
          </Field>
          <Field
            id="task-evidence"
            label="Evidence rule (JSON)"
            error={errors.evidence}
            hint='e.g. {"min_domains":2,"trusted_domains":["example.com"],"confirmations":1}. Blank: none.'
          >
            {(attributes) => (
              <textarea
                {...attributes}
                class="code"
                rows={4}
                spellcheck={false}
                value={values.evidence}
                onInput={(event) => set('evidence', event.currentTarget.value)}
              />
            )}
          </Field>
        </details>

        <AlertPolicyFields
          values={values.alert_policy}
          notifyBehavior={values.notify_behavior}
          errors={errors}
          onChange={(policy) => set('alert_policy', policy)}
        />

        <fieldset
          class="channels"
          aria-describedby={errors.notifications ? 'notifications-error' : undefined}
        >
          <legend>Notifications</legend>
          {CHANNELS.map((channel) => (
            <ChannelFields
              key={channel.type}
              channel={channel}
              config={values.notifications[channel.type]}
              onChange={(config) =>
                set('notifications', { ...values.notifications, [channel.type]: config })
              }
            />
          ))}
          {errors.notifications && (
            <p class="field-error" id="notifications-error" role="alert" tabIndex={-1}>
              {errors.notifications}
            </p>
          )}
        </fieldset>

        {errors.form && (
          <p class="notice notice-bad" role="alert" tabIndex={-1}>
            {errors.form}
          </p>
        )}
        <div class="actions">
          <button type="button" onClick={() => void runPreview()} disabled={busy !== null}>
            {busy === 'preview' ? 'Previewing…' : 'Preview'}
          </button>
          <button type="submit" class="primary" disabled={busy !== null}>
            {busy === 'save' ? 'Saving…' : creating ? 'Create task' : 'Save changes'}
          </button>
        </div>
      </form>
      {preview && <PreviewResult preview={preview} />}
    </div>
  );
}

function ChannelFields(props: {
  channel: Channel;
  config: ChannelValues | null;
  onChange: (config: ChannelValues | null) => void;
}): JSX.Element {
  const { channel, config } = props;
  const id = `channel-${channel.type}`;
  return (
    <div class="channel">
      <label class="check" for={id}>
        <input
          id={id}
          type="checkbox"
          checked={config !== null}
          onChange={(event) =>
            props.onChange(event.currentTarget.checked ? newConfig(channel) : null)
          }
        />
        {channel.label}
      </label>
      {config && (
        <div class="channel-fields">
          {channel.fields.map((field) => {
            const fieldId = `${id}-${field.name}`;
            if (field.input === 'headers') return null;
            const value =
              typeof config[field.name] === 'string' ? (config[field.name] as string) : '';
            const update = (next: string): void =>
              props.onChange({ ...config, [field.name]: next });
            return (
              <Field
                key={field.name}
                id={fieldId}
                label={`${field.label}${field.optional ? ' (optional)' : ''}`}
                hint={field.hint}
              >
                {(attributes) =>
                  field.input === 'choice' ? (
                    <select
                      {...attributes}
                      value={value || field.default}
                      onChange={(event) => update(event.currentTarget.value)}
                    >
                      {(field.choices ?? []).map((choice) => (
                        <option key={choice}>{choice}</option>
                      ))}
                    </select>
                  ) : field.input === 'password' ? (
                    <input
                      {...attributes}
                      type="password"
                      autoComplete="off"
                      value={value}
                      onInput={(event) => update(event.currentTarget.value)}
                    />
                  ) : (
                    <input
                      {...attributes}
                      type="text"
                      inputMode={field.input}
                      autoComplete="off"
                      spellcheck={false}
                      value={value}
                      onInput={(event) => update(event.currentTarget.value)}
                    />
                  )
                }
              </Field>
            );
          })}
        </div>
      )}
      {config &&
        channel.fields
          .filter((field) => field.input === 'headers')
          .map((field) => (
            <HeadersEditor
              key={field.name}
              id={`${id}-${field.name}`}
              label={`${field.label}${field.optional ? ' (optional)' : ''}`}
              emptyHint="None: deliveries carry only the signature headers."
              headers={(config[field.name] as Record<string, string> | undefined) ?? {}}
              onChange={(headers) => props.onChange({ ...config, [field.name]: headers })}
            />
          ))}
    </div>
  );
}

type PreviewWithPages = Preview & { page_results?: PageResult[] };

function PreviewResult(props: { preview: PreviewWithPages }): JSX.Element {
  const { preview } = props;
  return (
    <section class="card preview" aria-labelledby="preview-title">
      <h2 id="preview-title">
        Preview <MetBadge met={preview.condition_met} />
      </h2>
      <h3>Answer</h3>
      <p class="prose">{preview.answer}</p>
      <h3>Reasoning</h3>
      <p class="prose">{preview.reasoning}</p>
      {preview.values && (
        <>
          <h3>Values</h3>
          <Values values={preview.values} />
        </>
      )}
      {preview.page_results && (
        <>
          <h3>Pages</h3>
          <PageResults results={preview.page_results} />
        </>
      )}
      <h3>Sources</h3>
      <Sources sources={preview.grounding_sources} />
    </section>
  );
}
