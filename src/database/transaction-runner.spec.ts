import { QueryFailedError, type DataSource, type EntityManager } from 'typeorm';
import { QueueOperationError } from '../scheduler/job-queue.service';
import { isLockConflict, sqlStateOf } from './database-errors';
import { TransactionRunner } from './transaction-runner';

function pgError(code: string): Error {
  return Object.assign(new Error(`error ${code}`), { code });
}

function runnerFailing(errors: Error[]): { runner: TransactionRunner; calls: () => number } {
  let calls = 0;
  const dataSource = {
    transaction: async <T>(work: (manager: EntityManager) => Promise<T>): Promise<T> => {
      calls += 1;
      const error = errors.shift();
      if (error) throw error;
      return work({} as EntityManager);
    },
  } as unknown as DataSource;
  return { runner: new TransactionRunner(dataSource), calls: () => calls };
}

describe('sqlStateOf', () => {
  it('should read the SQLSTATE when TypeORM wraps the driver error', () => {
    expect(sqlStateOf(new QueryFailedError('SELECT 1', [], pgError('40P01')))).toBe('40P01');
  });

  it('should read the SQLSTATE when a queue operation wraps the error', () => {
    const wrapped = new QueueOperationError('scheduling the check', pgError('40001'));
    expect(wrapped.code).toBe('40001');
    expect(isLockConflict(wrapped)).toBe(true);
  });

  it('should follow the cause chain when an error names its cause', () => {
    const outer = new Error('outer', { cause: new Error('middle', { cause: pgError('40P01') }) });
    expect(sqlStateOf(outer)).toBe('40P01');
  });

  it('should answer undefined when no error carries a SQLSTATE', () => {
    expect(sqlStateOf(new Error('plain'))).toBeUndefined();
    expect(isLockConflict(pgError('23503'))).toBe(false);
  });
});

describe('TransactionRunner', () => {
  it('should run the work again when it lost a deadlock', async () => {
    const { runner, calls } = runnerFailing([pgError('40P01'), pgError('40001')]);
    await expect(runner.run(() => Promise.resolve('done'))).resolves.toBe('done');
    expect(calls()).toBe(3);
  });

  it('should give up after the tries when the conflict keeps coming back', async () => {
    const { runner, calls } = runnerFailing([pgError('40P01'), pgError('40P01'), pgError('40P01')]);
    await expect(runner.run(() => Promise.resolve('done'), { tries: 2 })).rejects.toThrow(
      'error 40P01',
    );
    expect(calls()).toBe(2);
  });

  it('should not run the work again when it failed for another reason', async () => {
    const { runner, calls } = runnerFailing([pgError('23503')]);
    await expect(runner.run(() => Promise.resolve('done'))).rejects.toThrow('error 23503');
    expect(calls()).toBe(1);
  });
});
