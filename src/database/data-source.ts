import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from './data-source-options';

/** Used by the TypeORM CLI (`npm run migration:generate`, `npm run migration:run`). */
export default new DataSource(
  buildDataSourceOptions(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'),
);
