import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';

const ROOT = join(__dirname, '..', '..');

interface ComposeService {
  image?: string;
  build?: string | { context?: string };
  profiles?: string[];
  depends_on?: string[] | Record<string, unknown>;
  volumes?: string[];
  env_file?: Array<string | { path: string; required?: boolean }>;
  environment?: Record<string, string | number>;
}

interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** docker-compose.yml as Compose reads it: js-yaml refuses a duplicated key, as Compose does. */
function composeFile(): ComposeFile {
  return load(read('docker-compose.yml')) as ComposeFile;
}

/** Every `docker compose ...` command written in a text, in inline code or at a line's start. */
function composeCommands(text: string): string[] {
  const inline = [...text.matchAll(/`(docker compose [^`]+)`/g)].map((match) => match[1]);
  const lines = [...text.matchAll(/^\s*(?:#\s*)?(docker compose [^`\n]+)$/gm)].map((match) =>
    match[1].trim(),
  );
  return [...new Set([...inline, ...lines])];
}

/** The profiles a command enables and the services it names (`exec ollama`, `up app`). */
function commandTargets(command: string): { profiles: string[]; services: string[] } {
  const words = command.split(/\s+/).slice(2);
  const profiles: string[] = [];
  let index = 0;
  for (; index < words.length && words[index].startsWith('-'); index++) {
    if (words[index] === '--profile') profiles.push(words[++index]);
  }
  const subcommand = words[index];
  const operands = words.slice(index + 1).filter((word) => !word.startsWith('-'));
  // exec and run name one service, then the command to run in it.
  const services = ['exec', 'run'].includes(subcommand) ? operands.slice(0, 1) : operands;
  return { profiles, services };
}

/** The services `service` needs started first (`required: false` ones may be left out). */
function dependencies(service: ComposeService): string[] {
  const dependsOn = service.depends_on ?? [];
  if (Array.isArray(dependsOn)) return dependsOn;
  return Object.entries(dependsOn)
    .filter(([, options]) => (options as { required?: boolean } | null)?.required !== false)
    .map(([name]) => name);
}

describe('docker-compose.yml', () => {
  it('should parse as YAML with no duplicated key', () => {
    expect(() => composeFile()).not.toThrow();
  });

  it('should start the service, its PostgreSQL and its browser when no profile is given', () => {
    const { services } = composeFile();
    const always = Object.keys(services).filter((name) => !services[name].profiles?.length);
    expect(always.sort()).toEqual(['app', 'browser', 'postgres']);
    expect(services.app.build).toBe('.');
    expect(existsSync(join(ROOT, 'Dockerfile'))).toBe(true);
  });

  it('should add SearXNG and Ollama with the self-hosted profile', () => {
    const { services } = composeFile();
    expect(services.searxng.profiles).toEqual(['self-hosted']);
    expect(services.ollama.profiles).toEqual(['self-hosted']);
  });

  it('should make a service depend only on services it is started with', () => {
    const { services } = composeFile();
    for (const [name, service] of Object.entries(services)) {
      for (const dependency of dependencies(service)) {
        expect({ name, dependency, defined: dependency in services }).toEqual({
          name,
          dependency,
          defined: true,
        });
        // Without the profile, `docker compose up` refuses a dependency that is not started.
        const profiles = services[dependency].profiles ?? [];
        const own = service.profiles ?? [];
        expect({ name, dependency, profiles }).toEqual({
          name,
          dependency,
          profiles: profiles.filter((profile) => own.includes(profile)),
        });
      }
    }
  });

  it('should hand the app every variable of .env.example through an optional .env, setting only what compose decides', () => {
    const { app } = composeFile().services;
    expect(app.env_file).toEqual([{ path: '.env', required: false }]);
    // Compose decides these: production, the published port on every interface of the
    // container, its own PostgreSQL, and its browser with the way back to the app's egress
    // proxy. They win over .env.
    const decided = [
      'BROWSER_PROXY_HOST',
      'BROWSER_WS_ENDPOINT',
      'DATABASE_URL',
      'HOST',
      'NODE_ENV',
      'PORT',
    ];
    expect(Object.keys(app.environment ?? {}).sort()).toEqual(decided);
    const documented = [...read('.env.example').matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=/gm)].map(
      (match) => match[1],
    );
    expect(documented).toEqual(expect.arrayContaining([...decided, 'PUBLIC_URL', 'METRICS_TOKEN']));
    // Nothing else is passed by name from the shell, where a variable of .env would not reach it.
    const interpolated = [...JSON.stringify(app).matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map(
      (match) => match[1],
    );
    expect(interpolated).toEqual(['POSTGRES_PASSWORD']);
  });

  it('should mount files that exist and volumes that are declared', () => {
    const compose = composeFile();
    for (const service of Object.values(compose.services)) {
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0];
        if (source.startsWith('.')) expect(existsSync(join(ROOT, source))).toBe(true);
        else expect(Object.keys(compose.volumes ?? {})).toContain(source);
      }
    }
  });
});

describe('The docker compose instructions of the README', () => {
  const readme = read('README.md');
  const commands = [...composeCommands(readme), ...composeCommands(read('docker-compose.yml'))];

  it('should be found in the README', () => {
    expect(commands).toEqual(
      expect.arrayContaining([
        'docker compose up --build',
        'docker compose --profile self-hosted up --build',
        'docker compose exec ollama ollama pull qwen3:8b',
      ]),
    );
  });

  it('should name only services and profiles that docker-compose.yml defines', () => {
    const { services } = composeFile();
    const profiles = new Set(Object.values(services).flatMap((service) => service.profiles ?? []));
    for (const command of commands) {
      const targets = commandTargets(command);
      for (const profile of targets.profiles) {
        expect({ command, profile, defined: profiles.has(profile) }).toEqual({
          command,
          profile,
          defined: true,
        });
      }
      for (const service of targets.services) {
        expect({ command, service, defined: service in services }).toEqual({
          command,
          service,
          defined: true,
        });
      }
    }
  });

  it('should point the self-hosted settings at services of the self-hosted profile', () => {
    const { services } = composeFile();
    const hosts = [...readme.matchAll(/^(?:SEARXNG_URL|LLM_BASE_URL)=(\S+)$/gm)].map(
      (match) => new URL(match[1]).hostname,
    );
    expect(hosts.sort()).toEqual(['ollama', 'searxng']);
    for (const host of hosts) expect(services[host]?.profiles).toContain('self-hosted');
  });
});
