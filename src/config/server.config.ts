import { defineConfig, type ConfigOf } from './config-slice';
import type { EnvReader } from './env-reader';

function parseTrustProxy(value: string | undefined): string | boolean | number {
  if (value === undefined) return false;
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/**
 * `PUBLIC_URL`: where users reach the service, the start of every absolute link it writes (RSS,
 * emails, chat messages, the console); never taken from a request's `Host` or `X-Forwarded-*`
 * headers (docs/api.md, "Other choices"). An http(s) URL, a path allowed (a proxy may serve the
 * service under one), no query, fragment or credentials; kept without its trailing slashes.
 */
function readPublicUrl(read: EnvReader, port: number): string {
  const fallback = `http://localhost:${port}`;
  const value = read.url('PUBLIC_URL', ['http:', 'https:']);
  if (value === null) return fallback;
  const parsed = new URL(value);
  if (
    parsed.search !== '' ||
    parsed.hash !== '' ||
    parsed.username !== '' ||
    parsed.password !== ''
  ) {
    read.problem(
      'PUBLIC_URL: expected an http or https URL without query, fragment or credentials',
    );
    return fallback;
  }
  return `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, '');
}

/** The process and its HTTP server (README, "Configuration"). */
export const serverConfig = defineConfig('server', (read) => {
  const nodeEnv = read.nodeEnv;
  const port = read.integer('PORT', 3000, 0, 65535);
  return {
    nodeEnv,
    isProduction: read.isProduction,
    port,
    publicUrl: readPublicUrl(read, port),
    // Without authentication anyone who can connect is an administrator: stay on this machine.
    host: read.string('HOST', read.boolean('AUTH_DISABLED', false) ? '127.0.0.1' : '0.0.0.0'),
    trustProxy: parseTrustProxy(read.raw('TRUST_PROXY')),
    logLevel: read.oneOf('LOG_LEVEL', ['debug', 'info', 'warn', 'error'] as const, 'info'),
  };
});
export type ServerConfig = ConfigOf<typeof serverConfig>;
