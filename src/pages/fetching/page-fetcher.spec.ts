import { PageServer } from '../../../test/support/page-server';
import {
  OutboundHttpClient,
  type OutboundRequest,
  type OutboundResponse,
} from '../../common/outbound/outbound-http.client';
import { PageFetcher } from './page-fetcher';

/**
 * The outbound client with the SSRF guard on, as production runs it, except that it takes
 * `localhost` for a public host: a page can then start on this machine and be redirected to
 * `127.0.0.1`, which the guard refuses.
 */
class LocalhostIsPublic extends OutboundHttpClient {
  private readonly guarded = new OutboundHttpClient({
    allowPrivateNetworks: false,
    dnsServers: [],
  });

  constructor() {
    super({ allowPrivateNetworks: true, dnsServers: [] });
  }

  override request(call: OutboundRequest): Promise<OutboundResponse> {
    if (new URL(call.url).hostname === 'localhost') return super.request(call);
    return this.guarded.request(call);
  }

  override onApplicationShutdown(): void {
    super.onApplicationShutdown();
    this.guarded.onApplicationShutdown();
  }
}

describe('PageFetcher with the SSRF guard on', () => {
  let server: PageServer;
  let http: LocalhostIsPublic;
  let fetcher: PageFetcher;

  beforeAll(async () => {
    server = await new PageServer().start();
    http = new LocalhostIsPublic();
    fetcher = new PageFetcher(http, { userAgent: 'TaskMonitor/test', timeoutMs: 5000 });
  });
  afterAll(async () => {
    http.onApplicationShutdown();
    await server.stop();
  });

  it.each([2, 3])(
    'should refuse a redirect to a private address at hop %i without requesting it',
    async (hops) => {
      const local = `http://localhost:${server.port}`;
      server.fixed(`/private-${hops}`, 200, 'text/plain', 'internal');
      for (let hop = 1; hop < hops; hop++) {
        const last = hop === hops - 1;
        server.redirect(
          `/public-${hops}-${hop}`,
          last ? `${server.origin}/private-${hops}` : `${local}/public-${hops}-${hop + 1}`,
        );
      }
      const result = await fetcher.fetchPage({ url: `${local}/public-${hops}-1` });
      expect(result).toEqual({
        kind: 'error',
        error: 'address not allowed',
        finalUrl: `${server.origin}/private-${hops}`,
      });
      expect(server.requestsTo(`/public-${hops}-${hops - 1}`)).toHaveLength(1);
      expect(server.requestsTo(`/private-${hops}`)).toHaveLength(0);
    },
  );
});
