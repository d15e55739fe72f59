import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

interface RouterLayer {
  route?: { methods: Record<string, boolean> };
  match(path: string): boolean;
}

/**
 * Knows which methods exist for a path, so a wrong method is a 405 rather than a 404. It reads
 * the routes Express holds (the `HEAD` it answers for `GET` routes is left out: the `Allow`
 * header names the declared methods).
 */
@Injectable()
export class RouteIndex {
  private layers: RouterLayer[] | null = null;

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  allowedMethods(path: string): string[] {
    const methods = new Set<string>();
    for (const layer of this.routeLayers()) {
      let matches: boolean;
      try {
        matches = layer.match(path);
      } catch {
        continue; // a path Express cannot decode matches no route
      }
      if (!matches) continue;
      for (const [method, enabled] of Object.entries(layer.route?.methods ?? {}))
        if (enabled && method !== '_all') methods.add(method.toUpperCase());
    }
    return [...methods].sort();
  }

  /** Read once, after every route is registered (the first 404 comes after start-up). */
  private routeLayers(): RouterLayer[] {
    this.layers ??= (
      this.adapterHost.httpAdapter.getInstance<{ router: { stack: RouterLayer[] } }>().router
        .stack ?? []
    ).filter((layer) => layer.route);
    return this.layers;
  }
}
