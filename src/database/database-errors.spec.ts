import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from './database-errors';

function pgError(code: string, message = 'failed'): Error {
  return Object.assign(new Error(message), { code });
}

describe('isDatabaseUnavailable', () => {
  it('should be true when the server cannot be reached or ended the connection', () => {
    expect(isDatabaseUnavailable(pgError('ECONNREFUSED'))).toBe(true);
    expect(isDatabaseUnavailable(pgError('ECONNRESET'))).toBe(true);
    expect(isDatabaseUnavailable(pgError('57P01'))).toBe(true);
    expect(isDatabaseUnavailable(pgError('08006'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(
      isDatabaseUnavailable(
        pgError('55000', 'database "monitor" is not currently accepting connections'),
      ),
    ).toBe(true);
  });

  it('should look through a query error and a cause chain when the failure is wrapped', () => {
    const query = new QueryFailedError('SELECT 1', [], pgError('57P01'));
    expect(isDatabaseUnavailable(query)).toBe(true);
    expect(isDatabaseUnavailable(new Error('queueing failed', { cause: query }))).toBe(true);
  });

  it('should be false when the database answered with an error of its own', () => {
    expect(isDatabaseUnavailable(pgError('23505'))).toBe(false);
    expect(isDatabaseUnavailable(pgError('55000', 'currval is not yet defined'))).toBe(false);
    expect(isDatabaseUnavailable(new Error('queue unavailable'))).toBe(false);
  });
});
