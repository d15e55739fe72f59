import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { BlockedDestinationError, type ResolvedAddress } from '../../common/outbound/network-guard';

/**
 * The SSRF guard for one destination host, with the pinned DNS of the page fetcher: the address
 * to connect to, or `BlockedDestinationError` (refused) or another error (no such host).
 */
export type DestinationCheck = (host: string) => Promise<ResolvedAddress>;

/** A destination's connection opens within this long, or the request fails. */
const CONNECT_TIMEOUT_MS = 15_000;
/** A CONNECT request's target: `host:port`, an IPv6 address in brackets. */
const CONNECT_TARGET = /^(\[[0-9a-fA-F:.]+\]|[^:[\]/\s]+):(\d{1,5})$/;
/** Request headers meant for a proxy, never passed on. */
const PROXY_HEADERS = new Set(['proxy-connection', 'proxy-authorization', 'proxy-authenticate']);

/** One page's way out: the proxy URL its browser context uses, and what it refused. */
export interface EgressListener {
  /** `http://<host>:<port>`, for the browser context's `proxy.server`. */
  readonly server: string;
  /** Whether a request to `url`'s host and port was refused by the SSRF guard. */
  refused(url: string): boolean;
  close(): Promise<void>;
}

/** `host:port` of a URL, with the scheme's port when it has none, as CONNECT names it. */
function authorityOf(url: URL): string {
  const port = url.port || (url.protocol === 'https:' || url.protocol === 'wss:' ? '443' : '80');
  return `${url.hostname}:${port}`;
}

/**
 * The egress proxy of browser pages (docs/pages.md, "Pages that need a browser"): every byte a
 * browser page sends leaves through it, plain HTTP requests (absolute URIs) and `CONNECT`
 * tunnels (HTTPS, WebSockets) alike. Each destination host is resolved once and checked by the
 * SSRF guard, and the connection goes to that very address, so a page cannot reach what the
 * page fetcher could not. A refused destination is answered `403` and remembered, so the page
 * can tell a refused document from a failed one. Each page gets a listener of its own (`open`),
 * which it closes when done, with every connection it opened.
 */
export class EgressProxy {
  constructor(
    private readonly check: DestinationCheck,
    /** The address listened on, and told to the browser. */
    private readonly host: string,
  ) {}

  async open(): Promise<EgressListener> {
    const refused = new Set<string>();
    const sockets = new Set<Duplex>();
    const track = (socket: Duplex): void => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    };
    const server = createServer((request, response) => {
      void this.forward(request, response, refused, track);
    });
    server.on('connection', track);
    server.on('connect', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      void this.tunnel(request, socket, head, refused, track);
    });
    // A WebSocket through a proxy is a CONNECT tunnel; an upgrade sent as a plain request is not
    // passed on.
    server.on('upgrade', (_request: IncomingMessage, socket: Duplex) => socket.destroy());
    server.on('clientError', (_error, socket: Duplex) => socket.destroy());
    const port = await listen(server, this.host);
    return {
      server: `http://${this.host.includes(':') ? `[${this.host}]` : this.host}:${port}`,
      refused: (url) => {
        try {
          return refused.has(authorityOf(new URL(url)));
        } catch {
          return false;
        }
      },
      close: () => close(server, sockets),
    };
  }

  /** The guard's address for `host`, or why there is none: `refused` or `failed`. */
  private async destination(host: string): Promise<ResolvedAddress | 'refused' | 'failed'> {
    try {
      return await this.check(host.replace(/^\[|\]$/g, ''));
    } catch (error) {
      return error instanceof BlockedDestinationError ? 'refused' : 'failed';
    }
  }

  private async tunnel(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    refused: Set<string>,
    track: (socket: Duplex) => void,
  ): Promise<void> {
    socket.on('error', () => socket.destroy());
    const target = CONNECT_TARGET.exec(request.url ?? '');
    if (target === null) return answerAndClose(socket, 400, 'Bad Request');
    const [, host, port] = target;
    const destination = await this.destination(host);
    if (destination === 'refused') {
      refused.add(`${host}:${port}`);
      return answerAndClose(socket, 403, 'Forbidden');
    }
    if (destination === 'failed') return answerAndClose(socket, 502, 'Bad Gateway');
    const upstream = connect({
      host: destination.address,
      port: Number(port),
      timeout: CONNECT_TIMEOUT_MS,
    });
    track(upstream);
    upstream.once('timeout', () => upstream.destroy());
    upstream.once('error', () => answerAndClose(socket, 502, 'Bad Gateway'));
    upstream.once('connect', () => {
      upstream.setTimeout(0);
      upstream.removeAllListeners('error');
      upstream.on('error', () => socket.destroy());
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
      socket.once('close', () => upstream.destroy());
      upstream.once('close', () => socket.destroy());
    });
  }

  private async forward(
    request: IncomingMessage,
    response: ServerResponse,
    refused: Set<string>,
    track: (socket: Duplex) => void,
  ): Promise<void> {
    let target: URL;
    try {
      target = new URL(request.url ?? '');
    } catch {
      return void response.writeHead(400).end();
    }
    if (target.protocol !== 'http:') return void response.writeHead(400).end();
    const destination = await this.destination(target.hostname);
    if (destination === 'refused') {
      refused.add(authorityOf(target));
      return void response.writeHead(403, { 'content-type': 'text/plain' }).end();
    }
    // No answer at all, as a host that cannot be reached gives none: the page reads it as a
    // connection that failed, not as a document of the proxy's.
    if (destination === 'failed') return void response.destroy();
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined && !PROXY_HEADERS.has(name)) headers[name] = value;
    }
    const upstream = httpRequest({
      host: destination.address,
      port: Number(target.port || 80),
      method: request.method,
      path: `${target.pathname}${target.search}`,
      headers: { ...headers, host: target.host },
      agent: false,
      timeout: CONNECT_TIMEOUT_MS,
    });
    upstream.once('socket', (socket: Socket) => track(socket));
    upstream.once('timeout', () => upstream.destroy());
    upstream.once('error', () => response.destroy());
    upstream.once('response', (answer) => {
      upstream.setTimeout(0);
      response.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
      answer.pipe(response);
    });
    response.once('close', () => upstream.destroy());
    request.pipe(upstream);
  }
}

function answerAndClose(socket: Duplex, status: number, reason: string): void {
  if (socket.writable) {
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
  } else {
    socket.destroy();
  }
}

async function listen(server: Server, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

async function close(server: Server, sockets: Set<Duplex>): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  for (const socket of sockets) socket.destroy();
  await closed;
}
