import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  exportJWK,
  exportSPKI,
  generateKeyPair,
  SignJWT,
  type JWTPayload,
  type KeyLike,
} from 'jose';

export interface MintOptions {
  email?: string | null;
  /** The token's `email_verified` claim (default true, as identity providers set it once verified). */
  emailVerified?: boolean;
  /** null: a token without `exp`. */
  expiresInSeconds?: number | null;
  issuer?: string;
  audience?: string;
  claims?: JWTPayload;
  /** Sign with a key the JWKS does not publish. */
  foreignKey?: boolean;
}

/** A local identity provider: publishes a JWKS on 127.0.0.1 and mints real RS256 tokens. */
export class JwksServer {
  readonly issuer = 'https://identity.test';
  readonly audience = 'monitor-tests';
  private server: Server | null = null;
  private privateKey: KeyLike;
  private foreignPrivateKey: KeyLike;
  private publicKey: KeyLike;
  private jwks: unknown;
  jwksUrl = '';

  async start(): Promise<this> {
    const pair = await generateKeyPair('RS256');
    const foreign = await generateKeyPair('RS256');
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
    this.foreignPrivateKey = foreign.privateKey;
    this.jwks = {
      keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' }],
    };
    this.server = createServer((request, response) => {
      if (request.url === '/.well-known/jwks.json') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(this.jwks));
        return;
      }
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.jwksUrl = `http://127.0.0.1:${port}/.well-known/jwks.json`;
    return this;
  }

  publicKeyPem(): Promise<string> {
    return exportSPKI(this.publicKey);
  }

  async mint(subject: string, options: MintOptions = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const payload: JWTPayload = { ...(options.claims ?? {}) };
    if (options.email !== null) {
      payload.email = options.email ?? `${subject}@example.com`;
      payload.email_verified = options.emailVerified ?? true;
    }
    const token = new SignJWT(payload)
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
      .setSubject(subject)
      .setIssuer(options.issuer ?? this.issuer)
      .setAudience(options.audience ?? this.audience)
      .setIssuedAt(now - 10);
    if (options.expiresInSeconds !== null)
      token.setExpirationTime(now + (options.expiresInSeconds ?? 600));
    return token.sign(options.foreignKey ? this.foreignPrivateKey : this.privateKey);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }
}
