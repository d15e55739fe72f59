import { defineConfig, type ConfigOf } from './config-slice';

function parseTrustProxy(value: string | undefined): string | boolean | number {
  if (value === undefined) return false;
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/** The process and its HTTP server (README, "Configuration"). */
export const serverConfig = defineConfig('server', (read) => {
  const nodeEnv = read.string('NODE_ENV', 'development');
  return {
    nodeEnv,
    isProduction: nodeEnv === 'production',
    port: read.integer('PORT', 3000, 0, 65535),
    // Without authentication anyone who can connect is an administrator: stay on this machine.
    host: read.string('HOST', read.boolean('AUTH_DISABLED', false) ? '127.0.0.1' : '0.0.0.0'),
    trustProxy: parseTrustProxy(read.raw('TRUST_PROXY')),
    logLevel: read.oneOf('LOG_LEVEL', ['debug', 'info', 'warn', 'error'] as const, 'info'),
  };
});
export type ServerConfig = ConfigOf<typeof serverConfig>;
