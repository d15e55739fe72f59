import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { AppConfig } from './app.config';
import { AppModule } from './app.module';
import type { RootLogger } from './common/logging/root-logger';
import { NOTIFICATION_SCHEMAS } from './notifications/channels/channel-schemas';

/**
 * The API document (`/openapi.json`, `/docs`): the routes' own metadata, and the schemas of the
 * channels' configs that `notifications` refers to.
 */
export function openApiDocument(app: INestApplication): OpenAPIObject {
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
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...NOTIFICATION_SCHEMAS.components },
  };
  return document;
}

/**
 * The document of the application `config` describes, without a database or a server: Nest's
 * preview mode builds the module graph and instantiates nothing (console/generate.ts reads it).
 */
export async function previewOpenApiDocument(
  config: AppConfig,
  logger: RootLogger,
): Promise<OpenAPIObject> {
  const app = await NestFactory.create(
    AppModule.forRoot({ config, databaseUrl: 'postgres://preview', logger }),
    { preview: true, logger: false, abortOnError: false },
  );
  try {
    return openApiDocument(app);
  } finally {
    await app.close();
  }
}
