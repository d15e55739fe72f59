import { RequestMethod, type Type } from '@nestjs/common';
import { GUARDS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { routeAuthLevel, type AuthLevel } from '../../src/common/decorators/auth.decorators';
import { THROTTLER_LIMIT, THROTTLER_TTL } from '@nestjs/throttler/dist/throttler.constants';
import { startTestApp, type TestApp } from '../support/test-app';

interface RegisteredRoute {
  method: string;
  path: string;
  level: AuthLevel;
  /** The route's own guards (`@UseGuards`), which add a rule of their own to its auth level. */
  guards: string[];
  handler: (...args: unknown[]) => unknown;
}

/**
 * Every route and who may call it. A change here is a change of who can reach what: it shows in
 * review as a snapshot diff.
 */
describe('Route auth declarations', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({
      // Every route below is called with a credential of the wrong form: none may be limited.
      env: {
        METRICS_TOKEN: 'metrics-token-for-tests',
        RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '1000',
      },
    });
  });

  afterAll(async () => {
    await testApp.close();
  });

  function registeredRoutes(): RegisteredRoute[] {
    const discovery = testApp.app.get(DiscoveryService);
    const scanner = testApp.app.get(MetadataScanner);
    const reflector = testApp.app.get(Reflector);
    const routes: RegisteredRoute[] = [];
    for (const wrapper of discovery.getControllers()) {
      const controller = wrapper.metatype as Type<unknown> | null;
      if (!controller || !wrapper.instance) continue;
      const prefix = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
      const prototype = Object.getPrototypeOf(wrapper.instance) as Record<string, unknown>;
      for (const name of scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name] as (...args: unknown[]) => unknown;
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
        if (path === undefined) continue;
        routes.push({
          method: RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod],
          path: `/${[prefix, path]
            .map((part) => part.replace(/^\/|\/$/g, ''))
            .filter(Boolean)
            .join('/')}`,
          level: routeAuthLevel(reflector, handler, controller),
          guards: [controller, handler]
            .flatMap(
              (target) =>
                reflector.get<Array<Type<unknown>> | undefined>(GUARDS_METADATA, target) ?? [],
            )
            .map((guard) => guard.name),
          handler,
        });
      }
    }
    return routes;
  }

  it('should match the reviewed list of routes and their auth levels', () => {
    const reflector = testApp.app.get(Reflector);
    const routes = registeredRoutes().map(({ method, path, level, guards, handler }) => {
      const ipLimit = reflector.get<number | undefined>(`${THROTTLER_LIMIT}ip`, handler);
      const llmLimit =
        reflector.get<number | undefined>(`${THROTTLER_TTL}model`, handler) !== undefined;
      const testSendLimit =
        reflector.get<number | undefined>(`${THROTTLER_TTL}test-send`, handler) !== undefined;
      return `${method.padEnd(6)} ${path} -> ${level}${ipLimit ? ` (per IP ${ipLimit}/min)` : ''}${llmLimit ? ' (model calls per user/h)' : ''}${testSendLimit ? ' (test sends per user/h)' : ''}${guards.map((guard) => ` (${guard})`).join('')}`;
    });
    expect(routes.sort()).toMatchSnapshot();
  });

  it('should answer 401 naming the Bearer form on every route that takes a credential when another scheme is sent', async () => {
    const takesCredential = registeredRoutes().filter(
      (route) => route.level !== 'public' || route.guards.length > 0,
    );
    expect(takesCredential.map((route) => route.path)).toEqual(
      expect.arrayContaining(['/metrics', '/mcp', '/admin/stats', '/auth/sync-user']),
    );
    for (const route of takesCredential) {
      const path = route.path.replace(/:[a-z_]+/g, '00000000-0000-4000-8000-000000000000');
      for (const header of ['Basic dXNlcjpwYXNz', 'Token sk_abc', 'sk_abc', 'Bearer two words']) {
        const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
        const response = await testApp.http[method](path).set('Authorization', header);
        expect({
          route: `${route.method} ${path}`,
          header,
          status: response.status,
          body: response.body as unknown,
        }).toEqual({
          route: `${route.method} ${path}`,
          header,
          status: 401,
          body: { detail: 'Authorization header must be "Bearer <API key or JWT>"' },
        });
      }
    }
  });
});
