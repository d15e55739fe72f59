import type { JSX } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { api, fieldErrors, type FieldOfMessage } from '../api';
import { DIGEST_FREQUENCIES, WEEKDAYS } from '../labels';
import type { DigestSchedule, Preferences } from '../types';
import {
  Field,
  LoadState,
  Notice,
  PageHeading,
  useFocusOnRefusal,
  useTitle,
  type NoticeValue,
} from '../ui';
import { sameTimeZone, timeZones } from '../time-zones';
import { useLoad } from '../use-load';

/** The 400 messages that name a preference, by how they start (docs/attention.md). */
const PREFERENCE_FIELD_OF_MESSAGE: FieldOfMessage = [
  ['Invalid preferences: time_zone', 'time_zone'],
  ['Invalid preferences: quiet_hours.end', 'quiet_end'],
  ['Invalid preferences: quiet_hours', 'quiet_start'],
  ['Invalid preferences: digest.at', 'digest_at'],
  ['Invalid preferences: digest.weekday', 'digest_weekday'],
  ['Invalid preferences: digest', 'digest_frequency'],
];

/** Quiet hours the form offers when they are turned on. */
const OFFERED_QUIET_HOURS = { start: '22:00', end: '07:00' };

interface FormValues {
  time_zone: string;
  quiet: boolean;
  quiet_start: string;
  quiet_end: string;
  frequency: DigestSchedule['frequency'];
  at: string;
  weekday: string;
}

function valuesOf(preferences: Preferences): FormValues {
  const quiet = preferences.quiet_hours ?? OFFERED_QUIET_HOURS;
  return {
    time_zone: preferences.time_zone,
    quiet: preferences.quiet_hours !== null,
    quiet_start: quiet.start,
    quiet_end: quiet.end,
    frequency: preferences.digest.frequency,
    at: preferences.digest.at,
    weekday: String(preferences.digest.weekday),
  };
}

/** The whole preferences, as `PUT` replaces each object it names. */
function bodyOf(values: FormValues): Preferences {
  return {
    time_zone: values.time_zone.trim(),
    quiet_hours: values.quiet ? { start: values.quiet_start, end: values.quiet_end } : null,
    digest: { frequency: values.frequency, at: values.at, weekday: Number(values.weekday) },
  };
}

/** The person's time zone, quiet hours and digest schedule (`#/preferences`). */
export function PreferencesPage(): JSX.Element {
  useTitle('Preferences');
  const [preferences, reload] = useLoad('preferences', () =>
    api<Preferences>('GET', '/api/v1/users/me/preferences'),
  );
  return (
    <section aria-labelledby="preferences-title">
      <div class="page-head">
        <PageHeading id="preferences-title">Preferences</PageHeading>
      </div>
      <LoadState state={preferences} what="your preferences" retry={() => void reload()}>
        {(loaded) => <PreferencesForm preferences={loaded} />}
      </LoadState>
    </section>
  );
}

function PreferencesForm(props: { preferences: Preferences }): JSX.Element {
  const [values, setValues] = useState<FormValues>(() => valuesOf(props.preferences));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<NoticeValue | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const zones = useRef(timeZones());
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  useFocusOnRefusal(form, errors);

  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]): void =>
    setValues((current) => ({ ...current, [key]: value }));

  async function save(event: Event): Promise<void> {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    setNotice(null);
    try {
      const saved = await api<Preferences>('PUT', '/api/v1/users/me/preferences', bodyOf(values));
      setValues(valuesOf(saved));
      setNotice({ tone: 'good', text: 'Preferences saved.' });
    } catch (error) {
      setErrors(fieldErrors(error, PREFERENCE_FIELD_OF_MESSAGE));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      ref={form}
      class="card preferences"
      onSubmit={(event) => void save(event)}
      noValidate
      aria-label="Preferences"
    >
      <Field
        id="time-zone"
        label="Time zone"
        error={errors.time_zone}
        hint="An IANA name such as Europe/Paris. Quiet hours and digests follow its clock."
      >
        {(attributes) => (
          <input
            {...attributes}
            type="text"
            list="time-zones"
            autoComplete="off"
            spellcheck={false}
            value={values.time_zone}
            onInput={(event) => set('time_zone', event.currentTarget.value)}
          />
        )}
      </Field>
      <datalist id="time-zones">
        {zones.current.map((zone) => (
          <option key={zone} value={zone} />
        ))}
      </datalist>
      {browserZone && !sameTimeZone(browserZone, values.time_zone.trim()) && (
        <p class="field-action">
          <button type="button" class="small" onClick={() => set('time_zone', browserZone)}>
            Use this browser's time zone ({browserZone})
          </button>
        </p>
      )}

      <fieldset aria-describedby="quiet-hours-hint">
        <legend>Quiet hours</legend>
        <p class="hint fieldset-hint" id="quiet-hours-hint">
          Alerts, value changes, withdrawals and reminders that fall due in quiet hours are held and
          go out when they end. Failing and recovered checks and test sends are never held.
        </p>
        <label class="check" for="quiet-hours">
          <input
            id="quiet-hours"
            type="checkbox"
            checked={values.quiet}
            onChange={(event) => set('quiet', event.currentTarget.checked)}
          />
          Hold notifications during quiet hours
        </label>
        {values.quiet && (
          <div class="field-row">
            <TimeField
              id="quiet-start"
              label="From"
              error={errors.quiet_start}
              value={values.quiet_start}
              onChange={(time) => set('quiet_start', time)}
            />
            <TimeField
              id="quiet-end"
              label="Until"
              error={errors.quiet_end}
              hint="Not included; before From: through midnight."
              value={values.quiet_end}
              onChange={(time) => set('quiet_end', time)}
            />
          </div>
        )}
      </fieldset>

      <fieldset aria-describedby="digest-hint">
        <legend>Digest</legend>
        <p class="hint fieldset-hint" id="digest-hint">
          Notifications set to arrive as a digest are gathered and sent once per period, at this
          time. A period without events sends nothing.
        </p>
        <div class="field-row">
          <Field id="digest-frequency" label="Frequency" error={errors.digest_frequency}>
            {(attributes) => (
              <select
                {...attributes}
                value={values.frequency}
                onChange={(event) =>
                  set('frequency', event.currentTarget.value as FormValues['frequency'])
                }
              >
                {Object.entries(DIGEST_FREQUENCIES).map(([frequency, label]) => (
                  <option key={frequency} value={frequency}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <TimeField
            id="digest-at"
            label="At"
            error={errors.digest_at}
            value={values.at}
            onChange={(time) => set('at', time)}
          />
          <Field
            id="digest-weekday"
            label="On"
            error={errors.digest_weekday}
            hint={values.frequency === 'weekly' ? undefined : 'Weekly digests only.'}
          >
            {(attributes) => (
              <select
                {...attributes}
                disabled={values.frequency !== 'weekly'}
                value={values.weekday}
                onChange={(event) => set('weekday', event.currentTarget.value)}
              >
                {Object.entries(WEEKDAYS).map(([weekday, label]) => (
                  <option key={weekday} value={weekday}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
      </fieldset>

      {errors.form && (
        <p class="notice notice-bad" role="alert" tabIndex={-1}>
          {errors.form}
        </p>
      )}
      <Notice notice={notice} />
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save preferences'}
        </button>
      </div>
    </form>
  );
}

/** A time of day, `HH:MM` on the clock of the time zone. */
function TimeField(props: {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  value: string;
  onChange: (time: string) => void;
}): JSX.Element {
  return (
    <Field id={props.id} label={props.label} error={props.error} hint={props.hint}>
      {(attributes) => (
        <input
          {...attributes}
          type="time"
          value={props.value}
          onInput={(event) => props.onChange(event.currentTarget.value)}
        />
      )}
    </Field>
  );
}
