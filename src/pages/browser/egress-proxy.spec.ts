import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { BlockedDestinationError } from '../../common/outbound/network-guard';
import { EgressProxy, type EgressListener } from './egress-proxy';

/** The guard of these tests: `refused.test` is refused, any other name is this machine. */
const check = (host: string) =>
  host === 'refused.test'
    ? Promise.reject(new BlockedDestinationError(host))
    : host === 'unknown.test'
      ? Promise.reject(new Error(`${host} does not resolve`))
      : Promise.resolve({ address: '127.0.0.1', family: 4 as const });

/** Sends `head` to the proxy raw and answers the first bytes it sends back. */
function raw(listener: EgressListener, head: string): Promise<string> {
  const { port } = new URL(listener.server);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(head));
    socket.once('data', (data) => {
      resolve(data.toString('latin1'));
      socket.destroy();
    });
    socket.once('error', reject);
  });
}

describe('EgressProxy', () => {
  let target: Server;
  let targetPort: number;
  let connections: number;
  let listener: EgressListener;

  beforeEach(async () => {
    connections = 0;
    target = createServer((_request, response) => response.end('from the target'));
    target.on('connection', () => connections++);
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetPort = (target.address() as AddressInfo).port;
    listener = await new EgressProxy(check, '127.0.0.1').open();
  });
  afterEach(async () => {
    await listener.close();
    target.closeAllConnections();
    await new Promise((resolve) => target.close(resolve));
  });

  it('should refuse a CONNECT to a refused host with 403, never reaching it, and remember it', async () => {
    const answer = await raw(listener, `CONNECT refused.test:${targetPort} HTTP/1.1\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 403 /);
    expect(connections).toBe(0);
    expect(listener.refused(`https://refused.test:${targetPort}/page`)).toBe(true);
    expect(listener.refused(`https://allowed.test:${targetPort}/page`)).toBe(false);
  });

  it('should tunnel a CONNECT to an allowed host to the address the guard gave', async () => {
    const { port } = new URL(listener.server);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write(`CONNECT allowed.test:${targetPort} HTTP/1.1\r\n\r\n`),
      );
      let received = '';
      socket.on('data', (data) => {
        received += data.toString('latin1');
        if (received.startsWith('HTTP/1.1 200') && !received.includes('GET sent')) {
          received += 'GET sent';
          socket.write('GET / HTTP/1.1\r\nHost: allowed.test\r\nConnection: close\r\n\r\n');
        }
      });
      socket.once('close', () => resolve(received));
      socket.once('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 Connection Established/);
    expect(answer).toContain('from the target');
  });

  it('should refuse a CONNECT without a port', async () => {
    expect(await raw(listener, 'CONNECT allowed.test HTTP/1.1\r\n\r\n')).toMatch(
      /^HTTP\/1\.1 400 /,
    );
  });

  it('should forward a plain HTTP request to an allowed host, and refuse a refused one', async () => {
    const get = (host: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const { port } = new URL(listener.server);
        const call = request({
          host: '127.0.0.1',
          port,
          path: `http://${host}:${targetPort}/page`,
          headers: { host: `${host}:${targetPort}` },
        });
        call.once('response', (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => (body += chunk.toString()));
          response.once('end', () => resolve({ status: response.statusCode ?? 0, body }));
        });
        call.once('error', reject);
        call.end();
      });
    expect(await get('allowed.test')).toEqual({ status: 200, body: 'from the target' });
    expect(await get('refused.test')).toMatchObject({ status: 403 });
    expect(connections).toBe(1);
    expect(listener.refused(`http://refused.test:${targetPort}/`)).toBe(true);
  });

  it('should close a plain HTTP request to a host that does not resolve without an answer', async () => {
    const { port } = new URL(listener.server);
    const received = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write(
          `GET http://unknown.test:${targetPort}/ HTTP/1.1\r\nHost: unknown.test\r\n\r\n`,
        ),
      );
      let data = '';
      socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
      socket.once('close', () => resolve(data));
      socket.once('error', reject);
    });
    expect(received).toBe('');
    expect(listener.refused(`http://unknown.test:${targetPort}/`)).toBe(false);
  });
});
