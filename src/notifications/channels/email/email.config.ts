import { defineConfig, type ConfigOf } from '../../../config/config-slice';

export const emailConfig = defineConfig('email', (read) => ({
  /** unset: email sends are recorded as failed with a clear error. */
  smtpUrl: read.url('SMTP_URL', ['smtp:', 'smtps:']),
  mailFrom: read.string('MAIL_FROM', 'Monitor <monitor@localhost>'),
  /** `verified`: email configs may only use the owner's own or verified addresses. */
  emailRecipientPolicy: read.oneOf(
    'EMAIL_RECIPIENT_POLICY',
    ['verified', 'any'] as const,
    'verified',
  ),
}));
export type EmailConfig = ConfigOf<typeof emailConfig>;
