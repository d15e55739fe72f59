import { RequestMethod, type Type } from '@nestjs/common';
import { GUARDS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { routeAuthLevel } from '../../src/common/decorators/auth.decorators';
import { THROTTLER_LIMIT, THROTTLER_TTL } from '@nestjs/throttler/dist/throttler.constants';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Every route and who may call it. A change here is a change of who can reach what: it shows in
 * review as a snapshot diff.
 */
describe('Route auth declarations', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('should match the reviewed list of routes and their auth levels', () => {
    const discovery = testApp.app.get(DiscoveryService);
    const scanner = testApp.app.get(MetadataScanner);
    const reflector = testApp.app.get(Reflector);
    const routes: string[] = [];
    for (const wrapper of discovery.getControllers()) {
      const controller = wrapper.metatype as Type<unknown> | null;
      if (!controller || !wrapper.instance) continue;
      const prefix = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
      const prototype = Object.getPrototypeOf(wrapper.instance) as Record<string, unknown>;
      for (const name of scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name] as (...args: unknown[]) => unknown;
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
        if (path === undefined) continue;
        const method =
          RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        const level = routeAuthLevel(reflector, handler, controller);
        const ipLimit = reflector.get<number | undefined>(`${THROTTLER_LIMIT}ip`, handler);
        const fullPath = `/${[prefix, path]
          .map((part) => part.replace(/^\/|\/$/g, ''))
          .filter(Boolean)
          .join('/')}`;
        const llmLimit =
          reflector.get<number | undefined>(`${THROTTLER_TTL}model`, handler) !== undefined;
        // A route's own guards (`@UseGuards`) add a rule of their own to its auth level.
        const guards = [controller, handler]
          .flatMap(
            (target) =>
              reflector.get<Array<Type<unknown>> | undefined>(GUARDS_METADATA, target) ?? [],
          )
          .map((guard) => ` (${guard.name})`)
          .join('');
        routes.push(
          `${method.padEnd(6)} ${fullPath} -> ${level}${ipLimit ? ` (per IP ${ipLimit}/min)` : ''}${llmLimit ? ' (model calls per user/h)' : ''}${guards}`,
        );
      }
    }
    expect(routes.sort()).toMatchSnapshot();
  });
});
