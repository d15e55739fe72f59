import { Injectable } from '@nestjs/common';
import {
  applyPreferencesUpdate,
  DEFAULT_PREFERENCES,
  type Preferences,
} from '../attention/preferences';
import { TransactionRunner } from '../database/transaction-runner';
import { UserRepository } from './user.repository';

/** A user's time zone, quiet hours and digest schedule (docs/attention.md, "Preferences"). */
@Injectable()
export class PreferencesService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly users: UserRepository,
  ) {}

  async get(userId: string): Promise<Preferences> {
    return (await this.users.preferencesOf(userId)) ?? DEFAULT_PREFERENCES;
  }

  /** Applies a `PUT`: each object it names replaces the stored one; 400 when anything is invalid. */
  update(userId: string, body: unknown): Promise<Preferences> {
    return this.transactions.run(async (manager) => {
      const stored = await this.users.preferencesOf(userId, manager);
      const preferences = applyPreferencesUpdate(body, stored ?? DEFAULT_PREFERENCES);
      await this.users.savePreferences(manager, userId, preferences);
      return preferences;
    });
  }
}
