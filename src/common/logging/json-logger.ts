import type { LoggerService, LogLevel } from '@nestjs/common';

const LEVEL_RANK: Record<string, number> = {
  debug: 10,
  verbose: 10,
  info: 20,
  log: 20,
  warn: 30,
  error: 40,
  fatal: 50,
};

/** One JSON object per line on stdout: easy to ship, grep and parse. */
export class JsonLogger implements LoggerService {
  private minimum: number;

  constructor(level = 'info') {
    this.minimum = LEVEL_RANK[level] ?? 20;
  }

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  /** Whether a line of this level would be written (to skip building one that would not). */
  isEnabled(level: string): boolean {
    return (LEVEL_RANK[level] ?? 20) >= this.minimum;
  }

  setLogLevels(levels: LogLevel[]): void {
    const ranks = levels.map((level) => LEVEL_RANK[level] ?? 20);
    if (ranks.length > 0) this.minimum = Math.min(...ranks);
  }

  private write(level: string, message: unknown, rest: unknown[]): void {
    if (!this.isEnabled(level)) return;
    const entry: Record<string, unknown> = { time: new Date().toISOString(), level };
    // Nest passes the context as the last string argument.
    const args = [...rest];
    if (args.length > 0 && typeof args[args.length - 1] === 'string') {
      entry.context = args.pop();
    }
    if (message instanceof Error) {
      entry.msg = message.message;
      entry.stack = message.stack;
    } else if (typeof message === 'object' && message !== null) {
      Object.assign(entry, message);
    } else {
      entry.msg = String(message);
    }
    for (const extra of args) {
      if (extra instanceof Error) entry.stack = extra.stack;
      else if (typeof extra === 'string') entry.stack = extra;
      else if (typeof extra === 'object' && extra !== null) Object.assign(entry, extra);
    }
    process.stdout.write(`${safeStringify(entry)}\n`);
  }
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return JSON.stringify({ level: 'error', msg: 'unserializable log entry' });
  }
}
