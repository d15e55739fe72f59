import type { INestApplicationContext, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Pool } from 'pg';
import { AppModule } from '../../src/app.module';
import { Clock } from '../../src/common/clock/clock';
import { createRootLogger } from '../../src/common/logging/root-logger';
import { LOG_SECRETS } from '../../src/log-secrets';
import { loadConfig } from '../../src/app.config';
import { runMigrations } from '../../src/database/migrate';
import {
  ProviderError,
  SearchProvider,
  type CheckReply,
  type CheckRequest,
  type SuggestReply,
} from '../../src/search/search-provider';
import type { Prices } from '../../src/search/provider-usage';
import { createTestDatabase, dropTestDatabase } from './test-app';

/** A clock the test sets: the service's rules read this time. */
export class ManualClock extends Clock {
  private current = new Date();

  override now(): Date {
    return new Date(this.current);
  }

  set(time: Date): void {
    this.current = new Date(time);
  }
}

/**
 * What the scripted provider answers for one search query: a reply, or an error it throws (a
 * `ProviderError`, or any other, as a bug in an adapter would throw).
 */
export type ScriptedReply = Omit<CheckReply, 'tokens'> | Error;

/**
 * The outside world of the check runner, replaced: a grounded-search provider that answers each
 * search query from a script, with the usage of a real call. The service's own code (cleaning,
 * pricing, the runner) runs around it.
 */
export class ScriptedSearchProvider extends SearchProvider {
  readonly name = 'scripted';
  readonly model = 'scripted-model';
  protected readonly prices: Prices = { inputPerMTok: 1, outputPerMTok: 2, perSearch: 0.01 };
  readonly requests: CheckRequest[] = [];
  private readonly replies = new Map<string, ScriptedReply[]>();

  isConfigured(): boolean {
    return true;
  }

  private readonly holds = new Map<string, Promise<void>>();

  script(searchQuery: string, ...replies: ScriptedReply[]): void {
    this.replies.set(searchQuery, replies);
  }

  /** Holds the answers for `searchQuery` until the returned function is called (a slow call). */
  hold(searchQuery: string): () => void {
    let release: () => void = () => undefined;
    this.holds.set(searchQuery, new Promise<void>((resolve) => (release = resolve)));
    return () => {
      this.holds.delete(searchQuery);
      release();
    };
  }

  protected async runCheck(request: CheckRequest): Promise<CheckReply> {
    await this.holds.get(request.searchQuery);
    this.requests.push(request);
    const reply = this.replies.get(request.searchQuery)?.shift();
    if (!reply) throw new ProviderError(`no reply scripted for "${request.searchQuery}"`);
    if (reply instanceof Error) throw reply;
    return { ...reply, tokens: { inputTokens: 1000, outputTokens: 100, searchCalls: 1 } };
  }

  protected runSuggest(): Promise<SuggestReply> {
    return Promise.reject(new ProviderError('suggestions are not scripted'));
  }
}

export interface ServiceContext {
  app: INestApplicationContext;
  clock: ManualClock;
  provider: ScriptedSearchProvider;
  /** direct access to the test database, for arranging and inspecting state */
  db: Pool;
  get<T>(type: Type<T>): T;
  close(): Promise<void>;
}

/**
 * The service tier: the real application modules on a database of their own, no HTTP server and
 * no background workers (`WORKER_ENABLED=false`), with the clock and the provider in the test's
 * hands. A test calls services and repositories directly and reads the database.
 */
export async function startServiceContext(
  env: Record<string, string> = {},
): Promise<ServiceContext> {
  const databaseUrl = await createTestDatabase();
  await runMigrations(databaseUrl);
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'error',
    DATABASE_URL: databaseUrl,
    WORKER_ENABLED: 'false',
    ...env,
  });
  const clock = new ManualClock();
  const provider = new ScriptedSearchProvider();
  const moduleRef = await Test.createTestingModule({
    imports: [
      AppModule.forRoot({
        config,
        databaseUrl,
        logger: createRootLogger({ level: config.server.logLevel, secrets: LOG_SECRETS }),
      }),
    ],
  })
    .overrideProvider(Clock)
    .useValue(clock)
    .overrideProvider(SearchProvider)
    .useValue(provider)
    .compile();
  await moduleRef.init();
  const db = new Pool({ connectionString: databaseUrl, max: 3 });
  db.on('error', () => undefined);
  return {
    app: moduleRef,
    clock,
    provider,
    db,
    get: (type) => moduleRef.get(type),
    async close() {
      try {
        await moduleRef.close();
      } finally {
        await db.end();
        await dropTestDatabase(databaseUrl);
      }
    },
  };
}
