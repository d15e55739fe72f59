import { defineConfig, type ConfigOf } from '../config/config-slice';

export const usersConfig = defineConfig('users', (read) => ({
  /** Get the admin role when their user is synced or created. */
  adminEmails: read.list('ADMIN_EMAILS').map((email) => email.toLowerCase()),
}));
export type UsersConfig = ConfigOf<typeof usersConfig>;
