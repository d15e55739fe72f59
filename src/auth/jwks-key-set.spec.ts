import { exportJWK, generateKeyPair, errors, type JWK } from 'jose';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OutboundHttpClient } from '../common/outbound/outbound-http.client';
import { JwksKeySet, KeysUnavailableError } from './jwks-key-set';

/** A JWKS endpoint whose keys and answers a test changes. */
class JwksEndpoint {
  keys: JWK[] = [];
  status = 200;
  body: string | null = null;
  fetches = 0;
  private server: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((_request, response) => {
      this.fetches += 1;
      response.writeHead(this.status, { 'content-type': 'application/json' });
      response.end(this.body ?? JSON.stringify({ keys: this.keys }));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/jwks.json`;
    return this;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function publicJwk(kid: string): Promise<JWK> {
  const { publicKey } = await generateKeyPair('RS256');
  return { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
}

describe('JwksKeySet', () => {
  const http = new OutboundHttpClient({ allowPrivateNetworks: false, dnsServers: [] });
  let endpoint: JwksEndpoint;
  let now: number;
  const keySet = () => new JwksKeySet(endpoint.url, http, () => now);

  beforeEach(async () => {
    endpoint = await new JwksEndpoint().start();
    endpoint.keys = [await publicJwk('first')];
    now = Date.parse('2026-01-01T00:00:00Z');
  });

  afterEach(() => endpoint.stop());
  afterAll(() => http.onApplicationShutdown());

  it('should fetch the set once and serve later tokens from the cache when the kid is known', async () => {
    const keys = keySet();

    await keys.keyFor({ alg: 'RS256', kid: 'first' });
    now += 60_000;
    await keys.keyFor({ alg: 'RS256', kid: 'first' });

    expect(endpoint.fetches).toBe(1);
  });

  it('should fetch again after ten minutes when the cache is stale', async () => {
    const keys = keySet();
    await keys.keyFor({ alg: 'RS256', kid: 'first' });

    now += 10 * 60_000;
    await keys.keyFor({ alg: 'RS256', kid: 'first' });

    expect(endpoint.fetches).toBe(2);
  });

  it('should pick up a rotated key for an unknown kid, but not more often than the cool-down', async () => {
    const keys = keySet();
    await keys.keyFor({ alg: 'RS256', kid: 'first' });
    endpoint.keys = [...endpoint.keys, await publicJwk('second')];

    await expect(keys.keyFor({ alg: 'RS256', kid: 'second' })).rejects.toBeInstanceOf(
      errors.JWKSNoMatchingKey,
    );
    expect(endpoint.fetches).toBe(1);

    now += 30_000;
    await keys.keyFor({ alg: 'RS256', kid: 'second' });
    expect(endpoint.fetches).toBe(2);
  });

  it('should share one fetch between tokens that arrive together', async () => {
    const keys = keySet();

    await Promise.all([1, 2, 3].map(() => keys.keyFor({ alg: 'RS256', kid: 'first' })));

    expect(endpoint.fetches).toBe(1);
  });

  it.each([
    ['an error status', (jwks: JwksEndpoint) => (jwks.status = 404)],
    ['a body that is not JSON', (jwks: JwksEndpoint) => (jwks.body = '<html>')],
    ['JSON that is not a key set', (jwks: JwksEndpoint) => (jwks.body = '{"keys":"none"}')],
  ])(
    'should report the keys as unavailable when the endpoint answers %s',
    async (_name, arrange) => {
      arrange(endpoint);

      await expect(keySet().keyFor({ alg: 'RS256', kid: 'first' })).rejects.toBeInstanceOf(
        KeysUnavailableError,
      );
    },
  );

  it('should report the keys as unavailable when nothing answers', async () => {
    await endpoint.stop();

    await expect(keySet().keyFor({ alg: 'RS256', kid: 'first' })).rejects.toBeInstanceOf(
      KeysUnavailableError,
    );
    endpoint = await new JwksEndpoint().start();
  });
});
