import { isRetryableSmtpError } from './email.channel';
import { smtpFailureClass } from './smtp-failure';

function smtpError(fields: Record<string, unknown>): Error {
  return Object.assign(new Error('smtp'), fields);
}

describe('isRetryableSmtpError', () => {
  it('should retry when the server answers with a temporary 4xx code', () => {
    expect(isRetryableSmtpError(smtpError({ responseCode: 451, command: 'DATA' }))).toBe(true);
    expect(isRetryableSmtpError(smtpError({ responseCode: 421, command: 'CONN' }))).toBe(true);
  });

  it('should not retry when the server rejects the message for good', () => {
    expect(isRetryableSmtpError(smtpError({ responseCode: 550, command: 'RCPT TO' }))).toBe(false);
  });

  it('should retry when no connection could be made', () => {
    expect(isRetryableSmtpError(smtpError({ code: 'ESOCKET', command: 'CONN' }))).toBe(true);
    expect(isRetryableSmtpError(smtpError({ code: 'EDNS' }))).toBe(true);
  });

  it('should retry when the connection is lost after the message was handed over', () => {
    expect(isRetryableSmtpError(smtpError({ code: 'ETIMEDOUT', command: 'DATA' }))).toBe(true);
    expect(isRetryableSmtpError(smtpError({ code: 'ECONNECTION' }))).toBe(true);
  });

  it('should not retry a message that cannot be built or addressed', () => {
    expect(isRetryableSmtpError(smtpError({ code: 'EENVELOPE', command: 'API' }))).toBe(false);
    expect(isRetryableSmtpError(smtpError({ code: 'EMESSAGE' }))).toBe(false);
  });
});

describe('smtpFailureClass', () => {
  it('should name the reply code when the server refused the message', () => {
    expect(smtpFailureClass(smtpError({ responseCode: 550, response: '550 mx.internal:25' }))).toBe(
      'rejected (550)',
    );
  });

  it('should say connection failed without the host or port when no server answered', () => {
    const error = Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:2525'), {
      code: 'ESOCKET',
    });
    expect(smtpFailureClass(error)).toBe('connection failed');
  });

  it('should say timed out when the server stopped answering', () => {
    expect(smtpFailureClass(smtpError({ code: 'ETIMEDOUT' }))).toBe('timed out');
  });
});
