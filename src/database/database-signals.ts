import { randomUUID } from 'node:crypto';
import {
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Client, type ClientConfig, type Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/** The pause before the signals' connection is opened again once lost. */
export const SIGNALS_RECONNECT_MS = 2_000;
/** The signals' connection shows as the application's name and this (`pg_stat_activity`). */
export const SIGNALS_APPLICATION_SUFFIX = 'signals';
/** A channel's name, as LISTEN takes it: an identifier, never a parameter. */
const CHANNEL_NAME = /^[a-z][a-z0-9_]*$/;

/** Signals between the instances sharing the database, as their users see them. */
export interface InstanceSignals {
  /**
   * Calls `listener` with the payload of each signal another instance sends on `channel`, the
   * channel's one listener.
   */
  listen(channel: string, listener: (payload: string) => void): void;
  /** Sends `payload` on `channel` to the other instances that listen, now or never. */
  send(channel: string, payload: string): void;
}

/**
 * Signals between the instances sharing the database (docs/architecture.md, "Signals between
 * instances"), over PostgreSQL's LISTEN and NOTIFY on a connection of their own, opened once
 * something listens. They are hints, never work: a signal sent while the connection is lost is
 * dropped, and the connection is opened again SIGNALS_RECONNECT_MS after it is lost.
 */
@Injectable()
export class DatabaseSignals
  implements InstanceSignals, OnApplicationBootstrap, OnApplicationShutdown
{
  /** Marks this instance's signals, which it hears too and skips. */
  private readonly sender = randomUUID();
  private readonly listeners = new Map<string, (payload: string) => void>();
  /** The connection being opened or open; null while none is. */
  private attempt: Client | null = null;
  /** The open connection, once it listens on every channel. */
  private connected: Client | null = null;
  private started = false;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  onApplicationBootstrap(): void {
    this.started = true;
    if (this.listeners.size > 0) void this.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.attempt;
    this.attempt = this.connected = null;
    await client?.end().catch(() => undefined);
  }

  listen(channel: string, listener: (payload: string) => void): void {
    if (!CHANNEL_NAME.test(channel)) throw new Error(`not a channel name: ${channel}`);
    if (this.listeners.has(channel)) throw new Error(`a channel has one listener: ${channel}`);
    this.listeners.set(channel, listener);
    if (this.connected) this.connected.query(`LISTEN ${channel}`).catch(() => undefined);
    else if (this.started && !this.attempt && !this.retry) void this.connect();
  }

  send(channel: string, payload: string): void {
    this.connected
      ?.query('SELECT pg_notify($1, $2)', [channel, `${this.sender} ${payload}`])
      .catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    // The options TypeORM gave the application's pool: the same server, user and settings.
    const { options } = (this.dataSource.driver as PostgresDriver).master as Pool & {
      options: ClientConfig;
    };
    const client = new Client({
      ...options,
      application_name: `${options.application_name} ${SIGNALS_APPLICATION_SUFFIX}`,
    });
    this.attempt = client;
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', ({ channel, payload = '' }) => {
      const space = payload.indexOf(' ');
      if (space < 0 || payload.slice(0, space) === this.sender) return;
      this.listeners.get(channel)?.(payload.slice(space + 1));
    });
    try {
      await client.connect();
      for (const channel of this.listeners.keys()) await client.query(`LISTEN ${channel}`);
      if (this.attempt === client) this.connected = client;
    } catch {
      this.lost(client);
    }
  }

  /** Drops `client` once, and opens another after a pause unless the instance is stopping. */
  private lost(client: Client): void {
    if (this.attempt !== client) return;
    this.attempt = this.connected = null;
    client.end().catch(() => undefined);
    if (this.stopped) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect();
    }, SIGNALS_RECONNECT_MS);
    this.retry.unref();
  }
}
