import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { withDeadline } from '../clock/deadline';
import { CodedError } from '../errors/coded-error';
import { BlockedDestinationError, isBlockedAddress, type ResolvedAddress } from './network-guard';
import { OutboundErrorCode } from './outbound-error-code';

/**
 * A lookup gives up after this long, well inside the 15 s delivery deadline (docs/architecture.md,
 * "Webhook hosts").
 */
export const DNS_TIMEOUT_MS = 5_000;
/** c-ares waits this long for the first try and longer for the next; the deadline caps it all. */
const DNS_TRY_TIMEOUT_MS = 2_000;
const DNS_TRIES = 2;

/** RFC 6761: `localhost` and its subdomains are loopback, without asking any DNS server. */
const LOOPBACK: ResolvedAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

export class DnsTimeoutError extends CodedError<OutboundErrorCode.DNS> {
  constructor(elapsedMs: number) {
    super(
      `no answer from the DNS server within ${(elapsedMs / 1000).toFixed(1)} s`,
      OutboundErrorCode.DNS,
    );
  }
}

/** Resolving a host failed (no such name, no answer in time, a refused query). */
export class HostLookupError extends CodedError<OutboundErrorCode.DNS> {
  constructor(
    readonly host: string,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), OutboundErrorCode.DNS, {
      cause,
    });
  }
}

/**
 * Resolves the hosts of notification URLs (webhooks, chat hooks, Telegram) with c-ares
 * (`dns.promises.Resolver`) rather than `dns.lookup`: c-ares runs on the event loop, not on libuv's four-thread pool, so a
 * name server that never answers cannot hold up file, crypto or other lookups of the process,
 * and every lookup ends within DNS_TIMEOUT_MS. `DNS_SERVERS` chooses the servers (default: the
 * system's, from /etc/resolv.conf). c-ares does not read /etc/hosts: IP literals and
 * `localhost` are answered here.
 */
export class HostResolver {
  private readonly resolver = new Resolver({ timeout: DNS_TRY_TIMEOUT_MS, tries: DNS_TRIES });

  constructor(dnsServers: readonly string[]) {
    if (dnsServers.length > 0) this.resolver.setServers([...dnsServers]);
  }

  /**
   * Returns the address to connect to, refusing a host with a blocked address unless private
   * networks are allowed (SSRF guard): `BlockedDestinationError`, or `HostLookupError` when the
   * host does not resolve.
   */
  async resolveAllowed(host: string, allowPrivate: boolean): Promise<ResolvedAddress> {
    const addresses = await this.resolve(host);
    if (!allowPrivate && addresses.some((entry) => isBlockedAddress(entry.address))) {
      throw new BlockedDestinationError(host);
    }
    return addresses[0];
  }

  /** Every address of `host` (at least one), or `HostLookupError`. */
  async resolve(host: string): Promise<ResolvedAddress[]> {
    const bare = host.replace(/^\[|\]$/g, '');
    const literal = isIP(bare);
    if (literal) return [{ address: bare, family: literal as 4 | 6 }];
    const name = bare.toLowerCase().replace(/\.$/, '');
    if (name === 'localhost' || name.endsWith('.localhost')) return LOOPBACK;
    try {
      const addresses = await this.lookupWithinDeadline(name);
      if (addresses.length === 0) throw new Error(`${host} does not resolve`);
      return addresses;
    } catch (error) {
      throw new HostLookupError(host, error);
    }
  }

  /** IPv4 addresses; IPv6 ones for a name that has no A record. */
  private async lookup(name: string): Promise<ResolvedAddress[]> {
    try {
      const v4 = await this.resolver.resolve4(name);
      return v4.map((address) => ({ address, family: 4 }));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENODATA') throw error;
    }
    const v6 = await this.resolver.resolve6(name);
    return v6.map((address) => ({ address, family: 6 }));
  }

  /**
   * One deadline for the whole lookup, whatever c-ares' own retries add up to. A query left
   * behind ends on c-ares' timeout; the shared resolver is not cancelled, as that would cancel
   * the lookups of other deliveries too.
   */
  private async lookupWithinDeadline(name: string): Promise<ResolvedAddress[]> {
    const startedAt = Date.now();
    try {
      return await withDeadline(this.lookup(name), DNS_TIMEOUT_MS, () => {
        throw new DnsTimeoutError(DNS_TIMEOUT_MS);
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ETIMEOUT') {
        throw new DnsTimeoutError(Date.now() - startedAt);
      }
      throw error;
    }
  }
}
