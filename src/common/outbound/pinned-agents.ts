import { Agent as HttpAgent, type AgentOptions, type ClientRequestArgs } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Duplex } from 'node:stream';
import { BlockedDestinationError, isBlockedAddress, type ResolvedAddress } from './network-guard';

/** Every address of a host name (at least one), or an error. */
export type HostResolve = (host: string) => Promise<ResolvedAddress[]>;

export interface PinnedAgentOptions extends AgentOptions {
  resolve: HostResolve;
  /** The SSRF guard: refuse hosts with a loopback, private, link-local or reserved address. */
  guard: boolean;
}

export interface AgentPair {
  http: HttpAgent;
  https: HttpsAgent;
}

/**
 * A `lookup` that resolves once per new connection, applies the guard to every address found
 * (one blocked address refuses the host) and hands Node exactly the first of them, so the
 * connection goes to an address the guard checked: there is no second lookup a rebinding DNS
 * server could answer differently. Host header and TLS SNI keep the name.
 */
function pinnedLookup(resolve: HostResolve, guard: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        if (guard && addresses.some((entry) => isBlockedAddress(entry.address))) {
          callback(new BlockedDestinationError(hostname), '', undefined);
          return;
        }
        const { address, family } = addresses[0];
        if (options.all) callback(null, [{ address, family }]);
        else callback(null, address, family);
      },
      (error: unknown) =>
        callback(error instanceof Error ? error : new Error(String(error)), '', undefined),
    );
  };
}

/**
 * Node skips `lookup` for a URL whose host is an IP literal (`http://[::ffff:7f00:1]/`), so the
 * guard checks literals where the agent opens a connection. Undefined: go ahead.
 */
function literalRefusal(options: ClientRequestArgs, guard: boolean): Error | undefined {
  const host = (options.host ?? options.hostname ?? '').replace(/^\[|\]$/g, '');
  if (!guard || isIP(host) === 0 || !isBlockedAddress(host)) return undefined;
  return new BlockedDestinationError(host);
}

type ConnectionCallback = (error: Error | null, socket: Duplex) => void;

/** Node's `Agent#createSocket`, which its typings leave out. */
type CreateSocket = (
  this: HttpAgent,
  request: unknown,
  options: object,
  callback: ConnectionCallback,
) => void;
const createHttpSocket = (HttpAgent.prototype as unknown as { createSocket: CreateSocket })
  .createSocket;
const createHttpsSocket = (HttpsAgent.prototype as unknown as { createSocket: CreateSocket })
  .createSocket;

/**
 * Node's agent keeps the options of the request that opened a socket for as long as the socket
 * lives (its close listener closes over them), and the request options axios builds carry
 * redirect hooks whose closures reach that request's settled answer: a kept-alive connection
 * would hold its first answer, up to a whole page, until it closed. The hooks go before Node
 * keeps the options; nothing at the socket level reads them, and the client follows no redirect.
 */
function withoutRequestHooks(options: object): object {
  return { ...options, beforeRedirects: undefined };
}

/** A keep-alive http agent whose sockets hold nothing of the requests they carried. */
export class KeptHttpAgent extends HttpAgent {
  createSocket(request: unknown, options: object, callback: ConnectionCallback): void {
    createHttpSocket.call(this, request, withoutRequestHooks(options), callback);
  }
}

/** `KeptHttpAgent` for https. */
export class KeptHttpsAgent extends HttpsAgent {
  createSocket(request: unknown, options: object, callback: ConnectionCallback): void {
    createHttpsSocket.call(this, request, withoutRequestHooks(options), callback);
  }
}

/** Sockets of the pinned agents that reached their destination (the TCP connection opened). */
const connectedSockets = new WeakSet<object>();

/**
 * Whether `socket` (a request's, from a pinned agent) had connected to its destination. An
 * exchange cut off by its deadline before that is a connection that failed, not a receiver that
 * kept quiet: a refused and a filtered port then read alike (docs/api.md, "Notifications").
 */
export function socketConnected(socket: unknown): boolean {
  return typeof socket === 'object' && socket !== null && connectedSockets.has(socket);
}

function watchConnect(socket: Duplex | undefined): Duplex {
  socket?.once('connect', () => connectedSockets.add(socket));
  return socket as Duplex;
}

class PinnedHttpAgent extends KeptHttpAgent {
  constructor(
    private readonly guardLiterals: boolean,
    options: AgentOptions,
  ) {
    super(options);
  }

  override createConnection(options: ClientRequestArgs, callback?: ConnectionCallback): Duplex {
    const refusal = literalRefusal(options, this.guardLiterals);
    // Node's agent takes an undefined return as "the callback will tell".
    if (refusal && callback) return refuse(refusal, callback);
    return watchConnect(super.createConnection(options, callback) as Duplex | undefined);
  }
}

class PinnedHttpsAgent extends KeptHttpsAgent {
  constructor(
    private readonly guardLiterals: boolean,
    options: AgentOptions,
  ) {
    super(options);
  }

  override createConnection(options: ClientRequestArgs, callback?: ConnectionCallback): Duplex {
    const refusal = literalRefusal(options, this.guardLiterals);
    if (refusal && callback) return refuse(refusal, callback);
    return watchConnect(super.createConnection(options, callback) as Duplex | undefined);
  }
}

function refuse(error: Error, callback: ConnectionCallback): Duplex {
  process.nextTick(() => callback(error, undefined as unknown as Duplex));
  return undefined as unknown as Duplex;
}

/**
 * Keep-alive http and https agents that resolve through `resolve` and connect to the address it
 * returned. Idle connections are reused per host and port as with any agent (a reused connection
 * went to an address that was checked when it opened); only new connections look up again.
 */
export function createPinnedAgents({ resolve, guard, ...options }: PinnedAgentOptions): AgentPair {
  const agentOptions: AgentOptions = { ...options, lookup: pinnedLookup(resolve, guard) };
  return {
    http: new PinnedHttpAgent(guard, agentOptions),
    https: new PinnedHttpsAgent(guard, agentOptions),
  };
}
