interface RouterLayer {
  route?: { path: string; methods: Record<string, boolean> };
  match?: (path: string) => boolean;
}

interface ExpressLike {
  router?: { stack: RouterLayer[] };
  _router?: { stack: RouterLayer[] };
}

/** Knows which methods exist for a path, so a wrong method is a 405 rather than a 404. */
export class RouteIndex {
  private readonly layers: RouterLayer[];

  constructor(app: ExpressLike) {
    this.layers = (app.router ?? app._router)?.stack.filter((layer) => layer.route) ?? [];
  }

  allowedMethods(path: string): string[] {
    const methods = new Set<string>();
    for (const layer of this.layers) {
      if (!layer.route || !layer.match) continue;
      try {
        if (!layer.match(path)) continue;
      } catch {
        continue;
      }
      for (const [method, enabled] of Object.entries(layer.route.methods)) {
        if (enabled && method !== '_all') methods.add(method.toUpperCase());
      }
    }
    return [...methods].sort();
  }
}
