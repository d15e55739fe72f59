/** A task's alert policy and standing alert (docs/attention.md, "Alert policy", "Acknowledge"). */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api } from './api';
import { formatDate } from './format';
import { ALERT_STATES } from './labels';
import type { AlertPolicy, StandingAlert, Task } from './types';
import { Badge, Notice, type NoticeValue } from './ui';

/** A policy in words: its cooldown and its reminders, or "None". */
export function describeAlertPolicy(policy: AlertPolicy | null): string {
  const parts = [
    policy?.cooldown && `Cooldown ${policy.cooldown}`,
    policy?.repeat_every &&
      `Reminders every ${policy.repeat_every}, at most ${timesOf(policy.repeat_max)}`,
  ].filter(Boolean);
  return parts.length === 0 ? 'None' : parts.join('. ');
}

function timesOf(count: number): string {
  return count === 1 ? 'once' : `${count} times`;
}

function remindersSent(alert: StandingAlert, policy: AlertPolicy | null): string {
  if (!policy?.repeat_every)
    return alert.repeats_sent === 0 ? 'None: no reminders set' : String(alert.repeats_sent);
  return `${alert.repeats_sent} of at most ${policy.repeat_max}, every ${policy.repeat_every}`;
}

/**
 * The standing alert, while one stands: when it went out, its reminders, and whether it was
 * acknowledged, with "Acknowledge" until it is. After an answer the task is loaded again; a
 * refusal (an alert withdrawn meanwhile: 409) stays said under the heading.
 */
export function AlertCard(props: { task: Task; onChanged: () => void }): JSX.Element | null {
  const { alert, alert_policy: policy } = props.task;
  const [notice, setNotice] = useState<NoticeValue | null>(null);
  const [busy, setBusy] = useState(false);
  if (!alert && !notice) return null;

  async function acknowledge(): Promise<void> {
    setBusy(true);
    setNotice(null);
    try {
      await api('POST', `/api/v1/tasks/${props.task.id}/acknowledge`);
      setNotice({ tone: 'good', text: 'Alert acknowledged: no more reminders.' });
    } catch (error) {
      setNotice({ tone: 'bad', text: (error as Error).message });
    } finally {
      setBusy(false);
      props.onChanged();
    }
  }

  return (
    <section class="card alert-card" aria-labelledby="alert-title">
      <div class="card-head">
        <h2 id="alert-title">Standing alert</h2>
        {alert && (
          <Badge
            value={alert.acknowledged_at ? 'acknowledged' : 'unacknowledged'}
            labels={ALERT_STATES}
          />
        )}
      </div>
      {alert ? (
        <dl class="details">
          <dt>Notified</dt>
          <dd>{formatDate(alert.notified_at)}</dd>
          <dt>Reminders sent</dt>
          <dd>{remindersSent(alert, policy)}</dd>
          <dt>Acknowledged</dt>
          <dd>{alert.acknowledged_at ? formatDate(alert.acknowledged_at) : 'Not yet'}</dd>
        </dl>
      ) : (
        <p class="muted">No alert stands now.</p>
      )}
      {alert && !alert.acknowledged_at && (
        <div class="actions card-actions">
          <button type="button" class="primary" disabled={busy} onClick={() => void acknowledge()}>
            Acknowledge
          </button>
        </div>
      )}
      <Notice notice={notice} />
    </section>
  );
}
