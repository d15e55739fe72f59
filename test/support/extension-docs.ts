import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual, parseEnv } from 'node:util';
import { EnvReader } from '../../src/config/env-reader';
import type { EnvVariable } from '../../src/config/env-variable';
import type { ChannelDefinition } from '../../src/notifications/channels/notification-channel';
import {
  requiredVariables,
  type SearchProviderDefinition,
} from '../../src/search/search-provider.definition';
import { searchVariablesOf } from '../../src/search/search.config';

/**
 * What the documentation says of the search providers and channels (docs/extending.md): their
 * variables in `.env.example` and the README's Configuration table, their rows in the README's
 * providers and channels tables and in docs/api.md's channels table. Each check answers what is
 * missing or different, one sentence each.
 */
export interface Documentation {
  readme: string;
  envExample: string;
  api: string;
}

const ROOT = join(__dirname, '..', '..');

export function readDocumentation(): Documentation {
  const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
  return { readme: read('README.md'), envExample: read('.env.example'), api: read('docs/api.md') };
}

/** `SEARCH_PROVIDER` and every variable the providers and channels declare. */
export function extensionVariables(
  providers: readonly SearchProviderDefinition[],
  channels: readonly ChannelDefinition[],
): EnvVariable[] {
  return [
    ...searchVariablesOf(providers),
    ...channels.flatMap((definition) => definition.variables ?? []),
  ];
}

/** Each `NAME=value` line of .env.example with the comment lines right above it, joined. */
function envExampleEntries(text: string): Map<string, { comment: string; value: string }> {
  const entries = new Map<string, { comment: string; value: string }>();
  let comment: string[] = [];
  for (const line of text.split('\n')) {
    const name = /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1];
    if (name !== undefined) {
      entries.set(name, { comment: comment.join(' '), value: parseEnv(line)[name] ?? '' });
      comment = [];
    } else if (line.startsWith('# ')) comment.push(line.slice(2));
    else comment = [];
  }
  return entries;
}

/** Each row `| \`NAME\` | default | meaning |` of the README. */
function readmeRows(readme: string): Map<string, { default: string; meaning: string }> {
  const rows = new Map<string, { default: string; meaning: string }>();
  for (const match of readme.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \| (.+?) \| (.+) \|$/gm))
    rows.set(match[1], { default: match[2], meaning: match[3] });
  return rows;
}

/** Where .env.example and the README's Configuration table differ from `variables`. */
export function undocumentedVariables(
  variables: readonly EnvVariable[],
  { readme, envExample }: Documentation,
): string[] {
  const entries = envExampleEntries(envExample);
  const rows = readmeRows(readme);
  return variables.flatMap((variable) => {
    const problems: string[] = [];
    const entry = entries.get(variable.name);
    if (entry === undefined) problems.push(`.env.example has no ${variable.name}=`);
    else {
      if (entry.value !== (variable.default ?? ''))
        problems.push(`.env.example sets ${variable.name}=${entry.value}`);
      if (entry.comment !== variable.description)
        problems.push(`.env.example's comment on ${variable.name} is "${entry.comment}"`);
    }
    const row = rows.get(variable.name);
    const defaultCell = variable.default === undefined ? 'unset' : `\`${variable.default}\``;
    if (row === undefined) problems.push(`the README has no row for ${variable.name}`);
    else {
      if (row.default !== defaultCell)
        problems.push(`the README's default of ${variable.name} is ${row.default}`);
      if (row.meaning !== variable.description)
        problems.push(`the README's meaning of ${variable.name} is "${row.meaning}"`);
    }
    return problems;
  });
}

/** The cells of the table row that starts with `` `key` ``, or null. */
function rowOf(text: string, key: string): string[] | null {
  const line = text
    .split('\n')
    .find((candidate) => new RegExp(`^\\|\\s*\`${key}\`\\s*\\|`).test(candidate));
  return line === undefined ? null : line.split('|').slice(2, -1);
}

/** Providers without a row in the README's providers table that names their required variables. */
export function undocumentedProviders(
  providers: readonly SearchProviderDefinition[],
  { readme }: Documentation,
): string[] {
  return providers.flatMap((provider) => {
    const needs = rowOf(readme, provider.name)?.[0];
    if (needs === undefined)
      return [`the README's providers table has no row for ${provider.name}`];
    return requiredVariables(provider)
      .filter((variable) => !needs.includes(`\`${variable}\``))
      .map((variable) => `the README's row of ${provider.name} does not name ${variable}`);
  });
}

/** Channels without a row in the README's and docs/api.md's channels tables that names their fields. */
export function undocumentedChannels(
  channels: readonly ChannelDefinition[],
  { readme, api }: Documentation,
): string[] {
  return channels.flatMap((channel) =>
    Object.entries({ 'the README': readme, 'docs/api.md': api }).flatMap(([where, text]) => {
      const fields = rowOf(text, channel.type)?.[0];
      if (fields === undefined) return [`${where} has no channel row for ${channel.type}`];
      return channel.fields
        .filter((field) => !fields.includes(`\`${field.name}\``))
        .map((field) => `${where}'s row of ${channel.type} does not name ${field.name}`);
    }),
  );
}

/** The names of the variables that `read` reads. */
export function variablesRead(read: (reader: EnvReader) => unknown): string[] {
  const names = new Set<string>();
  const env = new Proxy<Record<string, string | undefined>>(
    {},
    {
      get: (_target, name) => {
        if (typeof name === 'string') names.add(name);
        return undefined;
      },
    },
  );
  read(new EnvReader(env));
  return [...names].sort();
}

/** The variables whose declared default is not what `read` takes when they are unset. */
export function wrongDefaults(
  variables: readonly EnvVariable[],
  read: (reader: EnvReader) => unknown,
): string[] {
  const unset = read(new EnvReader({}));
  return variables
    .filter((variable) => variable.default !== undefined)
    .filter((variable) => {
      const reader = new EnvReader({ [variable.name]: variable.default });
      const value = read(reader);
      return reader.problems.length > 0 || !isDeepStrictEqual(value, unset);
    })
    .map((variable) => variable.name);
}
