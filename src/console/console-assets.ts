import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';

/**
 * Where `npm run build` writes the console (`console/build.ts`) and where it is served from:
 * `dist/console-assets/`. Two levels up from this file is the project root both when it runs
 * from `src/console/` (tests, ts-node, the build) and when it runs compiled from `dist/console/`.
 */
export const CONSOLE_ASSETS_DIR = resolve(__dirname, '..', '..', 'dist', 'console-assets');

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

export interface ConsoleAsset {
  body: Buffer;
  contentType: string;
}

interface BuiltConsole {
  /** `index.html` with its `{{auth}}` placeholder. */
  indexTemplate: string;
  /** The hashed files, by name: a request names one of these or nothing. */
  assets: Map<string, ConsoleAsset>;
}

/**
 * The built console, read once into memory on first use (about 120 kB): a request is answered
 * from this map, so no part of its path ever reaches the file system.
 */
@Injectable()
export class ConsoleAssets {
  private built: BuiltConsole | null = null;

  /** The page, telling the script whether it needs an API key (`<meta name="auth">`). */
  indexHtml(authDisabled: boolean): string {
    return this.load().indexTemplate.replace('{{auth}}', authDisabled ? 'disabled' : 'required');
  }

  asset(name: string): ConsoleAsset | undefined {
    return this.load().assets.get(name);
  }

  private load(): BuiltConsole {
    if (this.built) return this.built;
    let indexTemplate: string;
    let names: string[];
    try {
      indexTemplate = readFileSync(join(CONSOLE_ASSETS_DIR, 'index.html'), 'utf8');
      names = readdirSync(join(CONSOLE_ASSETS_DIR, 'assets'));
    } catch {
      throw new ServiceUnavailableException('The console is not built: run npm run build');
    }
    const assets = new Map<string, ConsoleAsset>();
    for (const name of names) {
      const contentType = CONTENT_TYPES[extname(name)];
      if (contentType)
        assets.set(name, {
          body: readFileSync(join(CONSOLE_ASSETS_DIR, 'assets', name)),
          contentType,
        });
    }
    this.built = { indexTemplate, assets };
    return this.built;
  }
}
