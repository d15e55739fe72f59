import { createSocket, type Socket } from 'node:dgram';

/**
 * A real DNS server socket on 127.0.0.1 (UDP) that takes every query and never answers: a name
 * server that has gone silent. `address` is what DNS_SERVERS takes.
 */
export class SilentDnsServer {
  queries = 0;
  address = '';

  private socket: Socket | null = null;

  async start(): Promise<this> {
    const socket = createSocket('udp4');
    socket.on('message', () => {
      this.queries += 1;
    });
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    this.socket = socket;
    this.address = `127.0.0.1:${socket.address().port}`;
    return this;
  }

  async stop(): Promise<void> {
    const socket = this.socket;
    this.socket = null;
    if (socket) await new Promise<void>((resolve) => socket.close(() => resolve()));
  }
}
