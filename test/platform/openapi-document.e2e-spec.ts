import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { loadConfig } from '../../src/app.config';
import { createRootLogger } from '../../src/common/logging/root-logger';
import { LOG_SECRETS } from '../../src/log-secrets';
import { NOTIFICATION_TYPES } from '../../src/notifications/channels/channel-registry';
import { previewOpenApiDocument } from '../../src/openapi-document';
import { startTestApp, type TestApp } from '../support/test-app';

const ROOT = join(__dirname, '..', '..');
const run = promisify(execFile);

/**
 * openapi-typescript's Node API, run by plain Node: its dependencies include ES modules, which
 * Node's require() loads but Jest's CommonJS runtime cannot.
 */
const GENERATE_TYPES = `
import { readFile, writeFile } from 'node:fs/promises';
import openapiTS, { astToString } from 'openapi-typescript';
const [documentPath, typesPath] = process.argv.slice(1);
const document = JSON.parse(await readFile(documentPath, 'utf8'));
await writeFile(typesPath, astToString(await openapiTS(document)));
`;

/** A client's reads of a task, its executions and its send history, typed by the document only. */
const CONSUMER = `
import type { paths } from './api';

type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type Task = Json<paths['/api/v1/tasks/{id}']['get']['responses'][200]>;
type Executions = Json<paths['/api/v1/tasks/{id}/executions']['get']['responses'][200]>;
type Sends = Json<paths['/api/v1/notifications/sends']['get']['responses'][200]>;
type Created = Json<paths['/api/v1/tasks']['post']['responses'][200]>;
type Invalid = Json<paths['/api/v1/tasks']['post']['responses'][422]>;
type Feed = paths['/tasks/{id}/rss']['get']['responses'][200]['content']['application/rss+xml'];
type Deleted = paths['/api/v1/tasks/{id}']['delete']['responses'][204];

export function summary(task: Task, executions: Executions, sends: Sends): string {
  const query: string = task.search_query;
  const next: string | null = task.next_run;
  const status: 'pending' | 'running' | 'retrying' | 'success' | 'failed' | 'cancelled' =
    executions[0].status;
  const lastAnswer: string | null | undefined = task.last_execution?.answer;
  const sources = executions[0].grounding_sources?.map((source) => source.uri) ?? [];
  const total: number = sends.total;
  const channel: ${NOTIFICATION_TYPES.map((type) => `'${type}'`).join(' | ')} =
    sends.sends[0].notification_type;
  return [query, next, status, lastAnswer, sources.join(), total, channel].join(' ');
}

export function firstRunError(created: Created): string | null {
  return created.immediate_execution_error;
}

export function firstRejectedField(error: Invalid): string {
  return error.detail.map((issue) => issue.loc.join('.') + ': ' + issue.msg)[0];
}

export const feedIsText = (feed: Feed): string => feed;
export type { Deleted };
`;

/** Reads a field no task has: the compiler must refuse it. */
const WRONG_CONSUMER = `
import type { paths } from './api';

type Task = paths['/api/v1/tasks/{id}']['get']['responses'][200]['content']['application/json'];

export const schedule = (task: Task): string => task.schedule;
`;

function typeErrors(directory: string, file: string): string[] {
  const program = ts.createProgram([join(directory, file)], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
    lib: ['lib.es2022.d.ts'],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

describe('OpenAPI document', () => {
  let testApp: TestApp;
  let directory: string;
  let documentPath: string;
  let document: {
    paths: Record<string, Record<string, { requestBody?: unknown; responses: object }>>;
  };

  beforeAll(async () => {
    testApp = await startTestApp();
    const response = await testApp.http.get('/openapi.json').expect(200);
    document = response.body as typeof document;
    directory = await mkdtemp(join(tmpdir(), 'openapi-client-'));
    documentPath = join(directory, 'openapi.json');
    await writeFile(documentPath, JSON.stringify(document));
    await run(
      process.execPath,
      ['--input-type=module', '-e', GENERATE_TYPES, documentPath, join(directory, 'api.ts')],
      { cwd: ROOT },
    );
    await writeFile(join(directory, 'consumer.ts'), CONSUMER);
    await writeFile(join(directory, 'wrong-consumer.ts'), WRONG_CONSUMER);
  });

  afterAll(async () => {
    await testApp.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('should type-check a client of tasks, executions and sends when its types are generated from the document', () => {
    expect(typeErrors(directory, 'consumer.ts')).toEqual([]);
  });

  it('should refuse a client that reads a field when the document does not declare it', () => {
    expect(typeErrors(directory, 'wrong-consumer.ts')).toEqual([
      expect.stringContaining("Property 'schedule' does not exist"),
    ]);
  });

  it('should be the document that console/generate.ts types when it is built without a database', async () => {
    const logger = createRootLogger({ level: 'error', secrets: LOG_SECRETS });
    const preview = await previewOpenApiDocument(loadConfig({}), logger);
    expect(JSON.parse(JSON.stringify(preview))).toEqual(document);
  });

  it('should describe each channel config by its type when a task holds notifications', () => {
    const schemas = (document as unknown as { components: { schemas: Record<string, object> } })
      .components.schemas;
    const telegram = schemas.TelegramNotificationConfig;
    expect(telegram).toMatchObject({
      required: ['type', 'chat_id', 'bot_token'],
      properties: { type: { enum: ['telegram'] }, chat_id: { type: 'string' } },
    });
    expect(schemas.WebhookNotificationConfig).toMatchObject({
      required: ['type', 'url'],
      properties: { method: { enum: ['POST', 'PUT', 'PATCH'], default: 'POST' } },
    });
    expect(schemas.TaskResponse).toMatchObject({
      properties: {
        notifications: {
          items: {
            oneOf: NOTIFICATION_TYPES.map((type) => ({
              $ref: expect.stringMatching(
                new RegExp(`/${type}NotificationConfig$`, 'i'),
              ) as unknown,
            })),
            discriminator: { propertyName: 'type' },
          },
        },
      },
    });
  });

  it('should make search_query optional on create and preview when the request gives pages', () => {
    const schemas = (
      document as unknown as {
        components: {
          schemas: Record<string, { required?: string[]; properties: Record<string, object> }>;
        };
      }
    ).components.schemas;
    for (const name of ['CreateTaskDto', 'PreviewTaskDto']) {
      expect(schemas[name].required ?? []).not.toContain('search_query');
      expect(schemas[name].properties.search_query).toMatchObject({
        description: expect.stringMatching(
          /^Required without pages\. With pages it may be left out/,
        ),
      });
    }
  });

  it('should declare 413 and 415 on every operation when it takes a JSON body', () => {
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        operation: `${method.toUpperCase()} ${path}`,
        body: operation.requestBody !== undefined,
        responses: Object.keys(operation.responses),
      })),
    );
    const withBody = operations.filter((entry) => entry.body);
    expect(withBody.length).toBeGreaterThan(10);
    for (const entry of withBody) {
      expect({ operation: entry.operation, responses: entry.responses }).toEqual({
        operation: entry.operation,
        responses: expect.arrayContaining(['413', '415']) as unknown,
      });
    }
  });

  it('should pass redocly lint with the recommended rules when the exceptions of redocly.yaml apply', async () => {
    const cli = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
    const args = ['lint', '--config', join(ROOT, 'redocly.yaml'), '--format', 'json', documentPath];
    const { stdout } = await run(process.execPath, [cli, ...args], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const report = JSON.parse(stdout) as {
      totals: { errors: number };
      problems: { ruleId: string; severity: string; message: string }[];
    };
    expect(report.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });
});
