import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import FindMyWay from 'find-my-way';

/** How paths match routes (as Express matched them): `/tasks/` is `/tasks`, case does not count. */
export const ROUTER_OPTIONS = {
  ignoreTrailingSlash: true,
  caseSensitive: false,
  // Long path parameters reach the route, whose validation answers for them.
  maxParamLength: 2048,
};

/**
 * Knows which methods exist for a path, so a wrong method is a 405 rather than a 404. It keeps
 * its own copy of the routes, recorded as Fastify registers them (`HEAD` routes Fastify adds
 * for `GET` ones are left out: the `Allow` header names the declared methods).
 */
@Injectable()
export class RouteIndex {
  private readonly router = FindMyWay(ROUTER_OPTIONS);
  private readonly methods = new Set<string>();

  constructor(adapterHost: HttpAdapterHost) {
    // No adapter when the modules run without HTTP (the service-tier tests).
    adapterHost.httpAdapter?.getInstance<FastifyInstance>().addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        if (method === 'HEAD') continue;
        this.methods.add(method);
        this.router.on(method as FindMyWay.HTTPMethod, route.url, () => undefined);
      }
    });
  }

  allowedMethods(path: string): string[] {
    return [...this.methods]
      .filter((method) => this.router.find(method as FindMyWay.HTTPMethod, path) !== null)
      .sort();
  }
}
