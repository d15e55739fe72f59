import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';

const TYPE_A = 1;

/**
 * A real DNS server on 127.0.0.1 (UDP) that answers every A query with `address`, after
 * `delayMs`: a name server that is slow but answers, so a request that resolves a hook host stays
 * in its lookup for a known time and then goes on. Other query types get an empty answer.
 * `address` of the server itself is what DNS_SERVERS takes.
 */
export class SlowDnsServer {
  queries = 0;
  address = '';

  private socket: Socket | null = null;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly answer: string,
    public delayMs: number,
  ) {}

  async start(): Promise<this> {
    const socket = createSocket('udp4');
    socket.on('message', (query, from) => {
      this.queries += 1;
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.reply(query, from);
      }, this.delayMs);
      this.timers.add(timer);
    });
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    this.socket = socket;
    this.address = `127.0.0.1:${socket.address().port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const socket = this.socket;
    this.socket = null;
    if (socket) await new Promise<void>((resolve) => socket.close(() => resolve()));
  }

  /** The query's header and question, flagged as an answer, with one A record when asked for. */
  private reply(query: Buffer, to: RemoteInfo): void {
    if (!this.socket || query.length < 12) return;
    let end = 12;
    while (end < query.length && query[end] !== 0) end += query[end] + 1;
    end += 5; // the root label, QTYPE and QCLASS
    if (end > query.length) return;
    const type = query.readUInt16BE(end - 4);
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2); // the id
    header.writeUInt16BE(0x8180, 2); // a response, recursion desired and available, no error
    header.writeUInt16BE(1, 4); // one question
    header.writeUInt16BE(type === TYPE_A ? 1 : 0, 6);
    const parts = [header, query.subarray(12, end)];
    if (type === TYPE_A) {
      const record = Buffer.alloc(16);
      record.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
      record.writeUInt16BE(TYPE_A, 2);
      record.writeUInt16BE(1, 4); // class IN
      record.writeUInt32BE(60, 6); // TTL
      record.writeUInt16BE(4, 10);
      this.answer
        .split('.')
        .forEach((octet, index) => record.writeUInt8(Number(octet), 12 + index));
      parts.push(record);
    }
    this.socket.send(Buffer.concat(parts), to.port, to.address);
  }
}
