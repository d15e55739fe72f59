import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { closeNow, listenOnLoopback } from './loopback';

/** A page's answer to one request: write the status, headers and body as a test needs. */
export type PageHandler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * Web pages on 127.0.0.1 for page monitors' tests: each path answers with its handler (404 when
 * none), and every request's path and headers are recorded.
 */
export class PageServer {
  readonly requests: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
  origin = '';
  port = 0;

  private server: Server | null = null;
  private readonly pages = new Map<string, PageHandler>();

  async start(): Promise<this> {
    const server = createServer((request, response) => {
      this.requests.push({ path: request.url ?? '', headers: request.headers });
      const handler = this.pages.get(request.url ?? '');
      if (handler) handler(request, response);
      else response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    });
    this.port = await listenOnLoopback(server);
    this.server = server;
    this.origin = `http://127.0.0.1:${this.port}`;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await closeNow(server);
  }

  /** Serves `path` with `handler`; returns the page's URL. */
  page(path: string, handler: PageHandler): string {
    this.pages.set(path, handler);
    return `${this.origin}${path}`;
  }

  /** A page that answers `status` with `body` of `contentType`. */
  fixed(path: string, status: number, contentType: string, body: string | Buffer): string {
    return this.page(path, (_request, response) => {
      response.writeHead(status, { 'content-type': contentType }).end(body);
    });
  }

  /** A redirect from `path` to `location`. */
  redirect(path: string, location: string, status = 302): string {
    return this.page(path, (_request, response) => {
      response.writeHead(status, { location }).end();
    });
  }

  requestsTo(path: string): Array<{ path: string; headers: IncomingHttpHeaders }> {
    return this.requests.filter((request) => request.path === path);
  }
}
