import { HttpException } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppModule } from '../../app.module';
import type { AppConfig } from '../../app.config';
import { HttpErrorFilter } from '../filters/http-error.filter';
import { ROUTER_OPTIONS } from '../filters/route-index';
import { MAX_BODY_BYTES, registerJsonBody } from '../http/json-body';
import type { JsonLogger } from '../logging/json-logger';
import { registerRequestLogging, requestId } from '../logging/request-logging';

/**
 * Builds the HTTP application on Fastify (README, "Versions, and why"); `main.ts` and the end-to-end
 * tests share it.
 */
export async function createApp(
  config: AppConfig,
  databaseUrl: string,
  logger: JsonLogger,
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    trustProxy: config.server.trustProxy,
    bodyLimit: MAX_BODY_BYTES,
    requestIdHeader: false,
    genReqId: requestId,
    routerOptions: ROUTER_OPTIONS,
    // Node's own default, which Fastify turns off: a client gets 5 minutes to send its request.
    requestTimeout: 300_000,
    // A target Fastify cannot route (bad percent-encoding) gets the API's error answer too.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
      app
        .get(HttpErrorFilter)
        .answer(new HttpException(error.message, error.statusCode ?? 400), request, reply),
  });
  registerJsonBody(adapter.getInstance());
  registerRequestLogging(adapter.getInstance(), logger);
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot({ config, databaseUrl, logger }),
    adapter,
    { bodyParser: false, logger, abortOnError: false },
  );
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Task Monitor API')
      .setDescription('Grounded-search monitoring tasks, executions and notifications.')
      .setVersion('1')
      // Paths are absolute from the service's root, wherever it is reachable.
      .addServer('/', 'This instance')
      .addBearerAuth({
        type: 'http',
        scheme: 'bearer',
        description: 'API key (sk_...) or identity-provider JWT',
      })
      .build(),
  );
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
  });
  return app;
}
