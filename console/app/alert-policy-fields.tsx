import type { JSX } from 'preact';
import { remindersAllowed, type AlertPolicyValues } from './alert-policy-form';
import { NOTIFY_BEHAVIORS } from './labels';
import type { NotifyBehavior } from './types';
import { Field, type FieldAttributes } from './ui';

/** The task form's alert policy: a cooldown, and reminders for `always` tasks. */
export function AlertPolicyFields(props: {
  values: AlertPolicyValues;
  notifyBehavior: NotifyBehavior;
  errors: Record<string, string>;
  onChange: (values: AlertPolicyValues) => void;
}): JSX.Element {
  const { values, errors } = props;
  const reminders = remindersAllowed(props.notifyBehavior);
  const input =
    (name: keyof AlertPolicyValues, disabled = false) =>
    (attributes: FieldAttributes): JSX.Element => (
      <input
        {...attributes}
        type="text"
        inputMode={name === 'repeat_max' ? 'numeric' : 'text'}
        autoComplete="off"
        spellcheck={false}
        disabled={disabled}
        value={values[name]}
        onInput={(event) => props.onChange({ ...values, [name]: event.currentTarget.value })}
      />
    );
  return (
    <fieldset
      class="alert-policy"
      aria-describedby={`alert-policy-hint${errors.alert_policy ? ' alert-policy-error' : ''}`}
    >
      <legend>Alert policy</legend>
      <p class="hint fieldset-hint" id="alert-policy-hint">
        Optional. Durations are a whole number and a unit: 30s, 15m, 2h, 1d.
      </p>
      <div class="field-row">
        <Field
          id="alert-cooldown"
          label="Cooldown"
          error={errors.alert_cooldown}
          hint="Alerts that come within this time of one sent wait, and go as one. Blank: none."
        >
          {input('cooldown')}
        </Field>
        <Field
          id="alert-repeat-every"
          label="Remind every"
          error={errors.alert_repeat_every}
          hint={
            reminders
              ? 'Sends a met condition again until it is acknowledged. Blank: no reminders.'
              : `Only when Notify is “${NOTIFY_BEHAVIORS.always}”.`
          }
        >
          {input('repeat_every', !reminders)}
        </Field>
        <Field
          id="alert-repeat-max"
          label="Reminders at most"
          error={errors.alert_repeat_max}
          hint="1 to 100. Blank: 10."
        >
          {input('repeat_max', !reminders)}
        </Field>
      </div>
      {errors.alert_policy && (
        <p class="field-error" id="alert-policy-error" role="alert" tabIndex={-1}>
          {errors.alert_policy}
        </p>
      )}
    </fieldset>
  );
}
