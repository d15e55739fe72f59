import { loadConfig } from './app.config';
import { startupSummary } from './startup-summary';

describe('startupSummary', () => {
  it('should say the URL, the auth mode, the provider, SMTP and the data directory when the database is embedded', () => {
    const summary = startupSummary(loadConfig({ DATA_DIR: '/var/lib/monitor' }), true);
    expect(summary).toEqual({
      msg: 'Listening',
      publicUrl: 'http://localhost:3000',
      host: '0.0.0.0',
      port: 3000,
      auth: expect.stringMatching(/^API keys only .*npm run create-key/) as unknown,
      searchProvider: expect.stringMatching(/^none/) as unknown,
      smtp: expect.stringMatching(/^not configured/) as unknown,
      database: 'embedded',
      dataDir: '/var/lib/monitor',
    });
  });

  it('should name the configured provider and JWT mode and print no secret when they are set', () => {
    const env = {
      DATABASE_URL: 'postgres://monitor:db-secret@db/monitor',
      GEMINI_API_KEY: 'gemini-secret',
      SMTP_URL: 'smtp://mailer:smtp-secret@mail.example:587',
      JWT_JWKS_URL: 'https://idp.example/.well-known/jwks.json',
      PUBLIC_URL: 'https://monitor.example.com',
    };
    const summary = startupSummary(loadConfig(env), false);
    expect(summary).toMatchObject({
      publicUrl: 'https://monitor.example.com',
      auth: expect.stringMatching(/^identity-provider JWTs \(JWKS\) and API keys/) as unknown,
      searchProvider: 'gemini',
      smtp: 'configured',
      database: 'DATABASE_URL',
    });
    expect(summary).not.toHaveProperty('dataDir');
    expect(JSON.stringify(summary)).not.toMatch(/secret|idp\.example|mail\.example/);
  });

  it('should say authentication is disabled when AUTH_DISABLED=true', () => {
    expect(startupSummary(loadConfig({ AUTH_DISABLED: 'true' }), true).auth).toMatch(/^disabled/);
  });
});
