import { Inject, Injectable } from '@nestjs/common';
// nestjs-pino's request context (pinned version, see docs/versions.md): `PinoLogger`
// logs through the logger of the store it runs in.
import { storage, Store } from 'nestjs-pino/storage';
import type { Logger } from 'pino';

export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

/** What every log line of a check carries. */
export interface CheckLogFields {
  taskId: string;
  executionId: string;
}

/** What every log line of a delivery carries. */
export interface DeliveryLogFields extends CheckLogFields {
  deliveryId: string;
}

/**
 * Runs work with fields bound to every line logged inside it (the task and execution ids on every
 * log line of a check and a delivery: docs/logging.md, "Lines"), whoever logs: our services, a
 * channel, the provider's client, a library through Nest's `Logger`. Each context starts from
 * the root logger, so a batch that one check started does not lend its ids to another's lines.
 */
@Injectable()
export class LogContext {
  constructor(@Inject(ROOT_LOGGER) private readonly root: Logger) {}

  run<T>(fields: CheckLogFields | DeliveryLogFields, work: () => T): T {
    return storage.run(new Store(this.root.child(fields)), work);
  }
}
