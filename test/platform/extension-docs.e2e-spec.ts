import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { CHANNELS } from '../../src/notifications/channels/channel-registry';
import { SEARCH_PROVIDERS } from '../../src/search/search-provider.registry';
import {
  extensionVariables,
  readDocumentation,
  undocumentedChannels,
  undocumentedProviders,
  undocumentedVariables,
} from '../support/extension-docs';

/** The documentation follows the registries of search providers and channels (docs/extending.md). */
describe('The documentation of the search providers and channels', () => {
  const documentation = readDocumentation();
  const variables = extensionVariables(SEARCH_PROVIDERS, CHANNELS);

  it('should list every variable in .env.example and the README as the definitions declare it', () => {
    expect(variables.length).toBeGreaterThan(SEARCH_PROVIDERS.length);
    expect(undocumentedVariables(variables, documentation)).toEqual([]);
  });

  it("should give every provider a row in the README's providers table", () => {
    expect(undocumentedProviders(SEARCH_PROVIDERS, documentation)).toEqual([]);
  });

  it('should give every channel a row in the channels tables of the README and docs/api.md', () => {
    expect(undocumentedChannels(CHANNELS, documentation)).toEqual([]);
  });

  it('should hand every such variable to the app when it is set in .env for docker compose', () => {
    const compose = load(readFileSync(join(__dirname, '..', '..', 'docker-compose.yml'), 'utf8'));
    const { app } = (
      compose as {
        services: { app: { env_file?: unknown; environment?: Record<string, unknown> } };
      }
    ).services;
    expect(app.env_file).toEqual([{ path: '.env', required: false }]);
    const overridden = Object.keys(app.environment ?? {});
    expect(variables.filter((variable) => overridden.includes(variable.name))).toEqual([]);
  });
});
