import { defineConfig, type ConfigOf } from '../../../config/config-slice';
import type { EnvVariable } from '../../../config/env-variable';

const DEFAULT_MAIL_FROM = 'Monitor <monitor@localhost>';
const RECIPIENT_POLICIES = ['verified', 'any'] as const;

export const EMAIL_VARIABLES: readonly EnvVariable[] = [
  {
    name: 'SMTP_URL',
    description:
      'SMTP server, e.g. `smtp://user:pass@host:587` (`smtps://` for TLS; a secret); unset: email attempts are recorded as failed',
  },
  { name: 'MAIL_FROM', default: DEFAULT_MAIL_FROM, description: 'Sender of notification emails' },
  {
    name: 'EMAIL_RECIPIENT_POLICY',
    default: 'verified',
    description:
      "`verified`: an email config may only use the owner's account email (when the identity provider verified it) or an address verified with a mailed code; `any`: no check",
  },
];

export const emailConfig = defineConfig('email', (read) => ({
  /** unset: email sends are recorded as failed with a clear error. */
  smtpUrl: read.url('SMTP_URL', ['smtp:', 'smtps:']),
  mailFrom: read.string('MAIL_FROM', DEFAULT_MAIL_FROM),
  /** `verified`: email configs may only use the owner's own or verified addresses. */
  emailRecipientPolicy: read.oneOf('EMAIL_RECIPIENT_POLICY', RECIPIENT_POLICIES, 'verified'),
}));
export type EmailConfig = ConfigOf<typeof emailConfig>;
