import { defineConfig, type ConfigOf } from '../config/config-slice';

export const databaseConfig = defineConfig('database', (read) => {
  if (read.isProduction && !read.isSet('DATABASE_URL')) {
    read.problem(
      'DATABASE_URL: required when NODE_ENV=production (the embedded database is for development only)',
    );
  }
  return {
    /** null: the embedded database under `dataDir`. */
    url: read.url('DATABASE_URL', ['postgres:', 'postgresql:']),
    poolSize: read.integer('DATABASE_POOL_SIZE', 20, 2, 500),
    dataDir: read.string('DATA_DIR', './data'),
  };
});
export type DatabaseConfig = ConfigOf<typeof databaseConfig>;
