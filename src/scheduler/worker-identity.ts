import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';

/** This process's worker id: running executions carry it, and its heartbeat vouches for them. */
@Injectable()
export class WorkerIdentity {
  readonly id = randomUUID();
}
