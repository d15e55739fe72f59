import {
  createServer,
  request,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { createSocket } from 'node:dgram';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { BlockedDestinationError, type ResolvedAddress } from './network-guard';
import { OutboundError, OutboundHttpClient, type OutboundRequest } from './outbound-http.client';
import { createPinnedAgents, type AgentPair } from './pinned-agents';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** A receiver on 127.0.0.1 that records what reached it. */
class Receiver {
  readonly seen: Array<{ path: string; host: string | undefined }> = [];
  connections = 0;
  handler: Handler = (_request, response) => response.end('ok');
  private server: Server;
  port = 0;

  async start(): Promise<this> {
    this.server = createServer((incoming, response) => {
      this.seen.push({ path: incoming.url ?? '', host: incoming.headers.host });
      this.handler(incoming, response);
    });
    this.server.on('connection', () => (this.connections += 1));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function failureOf(promise: Promise<unknown>): Promise<OutboundError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof OutboundError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

describe('OutboundHttpClient', () => {
  let receiver: Receiver;
  const guarded = new OutboundHttpClient({ allowPrivateNetworks: false, dnsServers: [] });
  const open = new OutboundHttpClient({ allowPrivateNetworks: true, dnsServers: [] });

  const call = (overrides: Partial<OutboundRequest>): OutboundRequest => ({
    destination: 'user',
    method: 'POST',
    url: `http://127.0.0.1:${receiver.port}/hook`,
    body: Buffer.from('{}'),
    timeoutMs: 2_000,
    response: 'text',
    maxResponseBytes: 1024 * 1024,
    ...overrides,
  });

  beforeEach(async () => {
    receiver = await new Receiver().start();
  });

  afterEach(() => receiver.stop());

  afterAll(() => {
    guarded.onApplicationShutdown();
    open.onApplicationShutdown();
  });

  describe('SSRF guard', () => {
    it.each([
      (port: number) => `http://127.0.0.1:${port}/hook`,
      (port: number) => `http://[::ffff:127.0.0.1]:${port}/hook`,
      (port: number) => `http://[0:0:0:0:0:ffff:7f00:1]:${port}/hook`,
      (port: number) => `http://localhost:${port}/hook`,
      (port: number) => `http://hooks.localhost:${port}/hook`,
    ])('should refuse a user URL that reaches loopback (%#) without connecting', async (url) => {
      const error = await failureOf(guarded.request(call({ url: url(receiver.port) })));

      expect(error.code).toBe('blocked');
      expect(error.message).toMatch(
        /resolves to a private or reserved address \(private and local addresses are refused; set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true to allow them\)$/,
      );
      expect(receiver.seen).toHaveLength(0);
    });

    it('should reach private addresses when private networks are allowed or the operator chose them', async () => {
      const user = await open.request(call({ url: `http://localhost:${receiver.port}/a` }));
      const operator = await guarded.request(call({ destination: 'operator' }));
      const telegram = await guarded.request(call({ destination: 'notification-service' }));

      expect([user.status, operator.status, telegram.status]).toEqual([200, 200, 200]);
      expect(receiver.seen).toHaveLength(3);
    });
  });

  it('should hand back a redirect as the answer without following it', async () => {
    receiver.handler = (incoming, response) => {
      if (incoming.url === '/hook') {
        response.writeHead(302, { location: `http://127.0.0.1:${receiver.port}/elsewhere` });
      }
      response.end();
    };

    const response = await open.request(call({}));

    expect(response.status).toBe(302);
    expect(response.header('location')).toMatch(/\/elsewhere$/);
    expect(receiver.seen.map((seen) => seen.path)).toEqual(['/hook']);
  });

  it('should not take a proxy from the environment', async () => {
    const saved = process.env.HTTP_PROXY;
    process.env.HTTP_PROXY = 'http://127.0.0.1:9';
    try {
      expect((await open.request(call({}))).status).toBe(200);
    } finally {
      if (saved === undefined) delete process.env.HTTP_PROXY;
      else process.env.HTTP_PROXY = saved;
    }
  });

  describe('size caps', () => {
    it('should fail with too-large when a text answer passes the cap, also once decompressed', async () => {
      receiver.handler = (_incoming, response) => response.end('x'.repeat(4096));
      const plain = await failureOf(open.request(call({ maxResponseBytes: 1024 })));

      receiver.handler = (_incoming, response) => {
        response.writeHead(200, { 'content-encoding': 'gzip' });
        response.end(gzipSync(Buffer.alloc(64 * 1024, 'a')));
      };
      const zipped = await failureOf(open.request(call({ maxResponseBytes: 16 * 1024 })));

      expect([plain.code, zipped.code]).toEqual(['too-large', 'too-large']);
    });

    it('should give the status and drop the rest when a discarded body passes the cap', async () => {
      receiver.handler = (_incoming, response) => {
        response.writeHead(500);
        response.end(Buffer.alloc(1024 * 1024));
      };

      const response = await open.request(call({ response: 'discard', maxResponseBytes: 1024 }));

      expect(response.status).toBe(500);
      expect(response.body).toBe('');
    });

    it('should return the bytes as sent, decompressed, and stop at the cap', async () => {
      const latin1 = Buffer.from('caf\xe9', 'latin1');
      receiver.handler = (_incoming, response) => {
        response.writeHead(200, { 'content-encoding': 'gzip' });
        response.end(gzipSync(latin1));
      };
      const answer = await open.request(call({ response: 'bytes' }));
      receiver.handler = (_incoming, response) => response.end(Buffer.alloc(4096));
      const capped = await failureOf(
        open.request(call({ response: 'bytes', maxResponseBytes: 1024 })),
      );
      expect([answer.bytes.equals(latin1), answer.body, capped.code]).toEqual([
        true,
        '',
        'too-large',
      ]);
    });

    it('should keep nothing of an answer on the kept-alive connection that carried it', async () => {
      setFlagsFromString('--expose-gc');
      const collectGarbage = runInNewContext('gc') as () => void;
      receiver.handler = (_incoming, response) => response.end(Buffer.alloc(1024 * 1024, 'a'));
      const carried = async (): Promise<WeakRef<ArrayBufferLike>> => {
        const answer = await open.request(call({ response: 'bytes' }));
        return new WeakRef(answer.bytes.buffer);
      };
      const first = await carried();
      const second = await carried();
      await new Promise((resolve) => setImmediate(resolve));
      collectGarbage();

      expect(receiver.connections).toBe(1);
      expect([first.deref(), second.deref()]).toEqual([undefined, undefined]);
    });

    it('should return the decompressed text when it fits', async () => {
      receiver.handler = (_incoming, response) => {
        response.writeHead(200, { 'content-encoding': 'gzip' });
        response.end(gzipSync('{"ok":true}'));
      };

      expect((await open.request(call({}))).body).toBe('{"ok":true}');
    });
  });

  describe('deadline', () => {
    it('should time out when the answer does not come', async () => {
      receiver.handler = () => undefined;
      const startedAt = Date.now();

      const error = await failureOf(open.request(call({ timeoutMs: 150 })));

      expect(error.code).toBe('timeout');
      expect(error.connected).toBe(true);
      expect(Date.now() - startedAt).toBeLessThan(1_000);
    });

    it('should say the connection never opened when the deadline came before it', async () => {
      // A name server that takes the query and never answers holds the connection in its lookup.
      const silentDns = createSocket('udp4');
      await new Promise<void>((resolve) => silentDns.bind(0, '127.0.0.1', resolve));
      const client = new OutboundHttpClient({
        allowPrivateNetworks: true,
        dnsServers: [`127.0.0.1:${silentDns.address().port}`],
      });
      try {
        const url = `http://hooks.example.test:${receiver.port}/hook`;
        const error = await failureOf(client.request(call({ url, timeoutMs: 150 })));

        expect(error).toMatchObject({ code: 'timeout', connected: false });
      } finally {
        client.onApplicationShutdown();
        await new Promise<void>((resolve) => silentDns.close(() => resolve()));
      }
    });

    it('should time out when the body stalls after the headers', async () => {
      receiver.handler = (_incoming, response) => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write('part of it');
      };

      const error = await failureOf(open.request(call({ timeoutMs: 150 })));

      expect(error.code).toBe('timeout');
    });

    it('should cut a body that trickles slower than its minimum rate, before the deadline', async () => {
      receiver.handler = (_incoming, response) => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        const trickle = setInterval(() => response.write('x'), 20);
        response.on('close', () => clearInterval(trickle));
      };
      const rate = { bytes: 1_000, windowMs: 200 };

      // The deadline is past the test's own: only the rate can end this exchange in time.
      const error = await failureOf(
        open.request(call({ response: 'bytes', timeoutMs: 60_000, minBodyRate: rate })),
      );

      expect(error).toMatchObject({
        code: 'timeout',
        connected: true,
        message: 'the body came slower than 1000 bytes in 200 ms',
      });
    });

    it('should let an answer take its time and keep a body that comes at its minimum rate', async () => {
      receiver.handler = (_incoming, response) => {
        // Longer than a window before the first byte, then a steady body.
        setTimeout(() => {
          response.writeHead(200, { 'content-type': 'text/plain' });
          let chunks = 0;
          const steady = setInterval(() => {
            response.write('y'.repeat(1_000));
            chunks += 1;
            if (chunks < 20) return;
            clearInterval(steady);
            response.end();
          }, 20);
        }, 600);
      };

      const answer = await open.request(
        call({ response: 'bytes', minBodyRate: { bytes: 100, windowMs: 300 } }),
      );

      expect(answer.bytes).toHaveLength(20_000);
    });

    it('should tell a caller’s cancellation from the deadline', async () => {
      receiver.handler = () => undefined;
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('execution timed out')), 50);

      const error = await failureOf(open.request(call({ signal: controller.signal })));

      expect(error.code).toBe('cancelled');
      expect(error.message).toBe('execution timed out');
    });
  });

  it('should report a refused connection with its code', async () => {
    const port = receiver.port;
    await receiver.stop();

    const error = await failureOf(open.request(call({ url: `http://127.0.0.1:${port}/` })));

    expect(error).toMatchObject({ code: 'network', systemCode: 'ECONNREFUSED', connected: false });
    receiver = await new Receiver().start();
  });

  it('should refuse a URL that is not http or https', async () => {
    const error = await failureOf(open.request(call({ url: 'ftp://127.0.0.1/' })));

    expect(error.code).toBe('invalid-url');
  });
});

describe('pinned agents', () => {
  let receiver: Receiver;
  let agents: AgentPair | null = null;

  beforeEach(async () => {
    receiver = await new Receiver().start();
  });

  afterEach(async () => {
    agents?.http.destroy();
    agents = null;
    await receiver.stop();
  });

  function get(agent: AgentPair['http'], host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const outgoing = request({ host, port: receiver.port, path: '/', agent }, (response) => {
        response.resume();
        response.once('end', () => resolve(response.statusCode ?? 0));
      });
      outgoing.once('error', reject);
      outgoing.end();
    });
  }

  it('should connect to the address the lookup returned, once per connection, keeping the name', async () => {
    // A rebinding name server: the checked answer first, a private one afterwards.
    const answers: ResolvedAddress[][] = [
      [{ address: '127.0.0.1', family: 4 }],
      [{ address: '10.255.255.1', family: 4 }],
    ];
    const lookups: string[] = [];
    agents = createPinnedAgents({
      keepAlive: true,
      resolve: (host) => {
        lookups.push(host);
        return Promise.resolve(answers[Math.min(lookups.length - 1, 1)]);
      },
      guard: false,
    });

    expect(await get(agents.http, 'hooks.example.test')).toBe(200);
    expect(await get(agents.http, 'hooks.example.test')).toBe(200);

    expect(lookups).toEqual(['hooks.example.test']);
    expect(receiver.seen.map((seen) => seen.host)).toEqual([
      `hooks.example.test:${receiver.port}`,
      `hooks.example.test:${receiver.port}`,
    ]);
  });

  it.each(['::ffff:127.0.0.1', '::ffff:7f00:1', '169.254.169.254'])(
    'should refuse a name whose lookup returns %s when the guard is on',
    async (address) => {
      agents = createPinnedAgents({
        keepAlive: true,
        resolve: () => Promise.resolve([{ address, family: address.includes(':') ? 6 : 4 }]),
        guard: true,
      });

      await expect(get(agents.http, 'rebind.example.test')).rejects.toBeInstanceOf(
        BlockedDestinationError,
      );
      expect(receiver.seen).toHaveLength(0);
    },
  );

  it('should refuse the host when any of its addresses is private', async () => {
    agents = createPinnedAgents({
      resolve: () =>
        Promise.resolve([
          { address: '93.184.216.34', family: 4 },
          { address: '127.0.0.1', family: 4 },
        ]),
      guard: true,
    });

    await expect(get(agents.http, 'mixed.example.test')).rejects.toBeInstanceOf(
      BlockedDestinationError,
    );
  });
});
