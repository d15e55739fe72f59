/** nodemailer error fields (see nodemailer's errors.d.ts): what failed, and the server's reply. */
export interface SmtpError extends Error {
  code?: string;
  command?: string;
  responseCode?: number;
  response?: string;
}

/** nodemailer's codes for a message it could not build or address. */
export const UNSENDABLE_MESSAGE_CODES = ['EENVELOPE', 'EMESSAGE'];

/**
 * The class of an SMTP failure as users read it (`SMTP error: <class>`, docs/api.md,
 * "Notifications"): the server's reply code when it answered (`rejected (550)`), else `timed out`,
 * `invalid message` or `connection failed`. Never the server's text, its host or its port: those go
 * to the log.
 */
export function smtpFailureClass(error: unknown): string {
  const smtp = error as SmtpError | undefined;
  if (typeof smtp?.responseCode === 'number') return `rejected (${smtp.responseCode})`;
  const code = smtp?.code ?? '';
  if (code === 'ETIMEDOUT') return 'timed out';
  if (UNSENDABLE_MESSAGE_CODES.includes(code)) return 'invalid message';
  return 'connection failed';
}

/** What an SMTP failure looked like for the log: nodemailer's message and code. */
export function smtpFailureDetail(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const smtp = error as SmtpError;
  return smtp.code && !smtp.message.includes(smtp.code)
    ? `${smtp.message} (${smtp.code})`
    : smtp.message;
}
