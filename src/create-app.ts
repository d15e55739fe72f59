import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import { AppModule } from './app.module';
import type { AppConfig } from './app.config';
import { localHostsOnly } from './auth/local-hosts-only.middleware';
import { jsonBody } from './common/http/json-body';
import { MAX_JSON_DEPTH } from './common/validation/json-depth';
import { decodablePath } from './common/http/request-path';
import { docsSecurityHeaders } from './common/openapi/docs-security-headers';
import { FrameworkLogger } from './common/logging/framework-logger';
import { requestLogging } from './common/logging/http-logging';
import type { RootLogger } from './common/logging/root-logger';
import { mcpRequestBody } from './mcp/mcp-request-body';
import { httpMetrics } from './metrics/http-metrics.middleware';
import { openApiDocument } from './openapi-document';
import { MetricsService } from './metrics/metrics.service';

/** Node's own default: a client gets 5 minutes to send its request. */
const REQUEST_TIMEOUT_MS = 300_000;

/**
 * Builds the HTTP application on Express; `main.ts` and the end-to-end tests share it. `logger`
 * is the process's root logger (`createRootLogger`): every line of the application goes there.
 */
export async function createApp(
  config: AppConfig,
  databaseUrl: string,
  logger: RootLogger,
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot({ config, databaseUrl, logger }),
    { bodyParser: false, bufferLogs: true, abortOnError: false },
  );
  app.useLogger(app.get(FrameworkLogger));
  app.set('trust proxy', config.server.trustProxy);
  app.disable('x-powered-by');
  // No ETag: hashing every answer costs CPU, and the API's answers are not cached by clients.
  app.set('etag', false);
  app.use(httpMetrics(app.get(MetricsService)));
  app.use(requestLogging(logger));
  if (config.auth.authDisabled) app.use(localHostsOnly(config.server.publicUrl));
  app.use('/docs', docsSecurityHeaders());
  app.use(decodablePath());
  if (config.mcp.enabled) app.use('/mcp', mcpRequestBody());
  app.use(jsonBody({ maxDepth: MAX_JSON_DEPTH }));
  app.getHttpServer().requestTimeout = REQUEST_TIMEOUT_MS;
  SwaggerModule.setup('docs', app, openApiDocument(app), {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
  });
  return app;
}
