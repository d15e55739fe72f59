import {
  BadRequestException,
  ConflictException,
  HttpException,
  HttpStatus,
  Injectable,
  UnprocessableEntityException,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { randomUUID } from 'node:crypto';
import { defer, from, of, type Observable } from 'rxjs';
import { catchError, mergeMap } from 'rxjs/operators';
import type { Request, Response } from 'express';
import { Clock } from '../common/clock/clock';
import type { AuthenticatedRequest } from '../common/decorators/auth.decorators';
import { HttpErrorFilter } from '../common/filters/http-error.filter';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { IdempotencyScope, type HeldKey } from './idempotency-scope';
import { IdempotencyRepository } from './idempotency.repository';
import { keptBody, withoutEchoedInput } from './kept-answer';
import { requestFingerprint } from './request-fingerprint';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** How long a key is kept (docs/api.md, "Idempotency-Key"). */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/**
 * An unanswered key older than this was left by a request whose work never committed (its
 * instance stopped): the next request with it runs. The routes answer within seconds.
 */
const ABANDONED_AFTER_MS = 10 * 60 * 1000;
/** 1 to 255 visible ASCII characters. */
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;
/** Live keys one user may hold: each may keep an answer of up to 64 kB. */
const MAX_LIVE_KEYS_PER_USER = 10_000;

export const DIFFERENT_REQUEST = 'Idempotency-Key was used with a different request';
export const IN_PROGRESS = 'A request with this Idempotency-Key is in progress';
export const TOO_MANY_KEYS = 'Too many Idempotency-Keys in use';

/**
 * `Idempotency-Key` on the routes marked `@Idempotent()` (docs/api.md, "Idempotency-Key"). The
 * key is claimed before the route runs, in one statement. The request that claims it runs the
 * route inside an `IdempotencyScope`, through which the route's work keeps its answer in its own
 * transaction. An answer the work did not keep (over 64 kB) lets the key go; so do a 5xx and a
 * 429 that came before the work committed. Another error is kept here, after the route (its
 * work rolled back), without the input a 422 echoes. Any other request with the key gets the
 * kept answer again (`Idempotent-Replayed: true`), 422 when it is another request, or 409 while
 * the first has not answered.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly keys: IdempotencyRepository,
    private readonly scope: IdempotencyScope,
    private readonly errors: HttpErrorFilter,
    private readonly clock: Clock,
    @InjectPinoLogger(IdempotencyInterceptor.name) private readonly logger: PinoLogger,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest & Request>();
    const header = request.headers[IDEMPOTENCY_KEY_HEADER];
    const userId = request.user?.id;
    if (header === undefined || userId === undefined) return next.handle();
    if (typeof header !== 'string' || !VALID_KEY.test(header))
      throw new BadRequestException('Invalid Idempotency-Key');
    const key = header;
    const fingerprint = requestFingerprint(request.method, request.originalUrl, request.body);
    const claim = randomUUID();
    const now = this.clock.now();
    const expiredBefore = new Date(now.getTime() - KEY_LIFETIME_MS);
    const found = await this.keys.claim({
      userId,
      key,
      claim,
      fingerprint,
      now,
      expiredBefore,
      abandonedBefore: new Date(now.getTime() - ABANDONED_AFTER_MS),
    });
    if (found.claim !== claim)
      return this.answerAgain(context, found.fingerprint, fingerprint, found);

    const held: HeldKey = {
      userId,
      key,
      claim,
      status:
        (Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) as number | undefined) ??
        (request.method === 'POST' ? HttpStatus.CREATED : HttpStatus.OK),
      answerKept: false,
    };
    return defer(() => this.assertUnderKeyCap(userId, expiredBefore)).pipe(
      mergeMap(() => this.scope.open(held, () => next.handle())),
      mergeMap((body: unknown) => from(this.settleSuccess(held).then(() => body))),
      catchError((error: unknown) => from(this.settleFailure(held, error, request))),
    );
  }

  /**
   * 429 when the user's live keys, this new one included, pass the cap. Counted after the claim
   * committed, in a statement of its own: of two requests racing for the last place, the one
   * counting later sees the other's key, so the cap holds (both may be refused).
   */
  private async assertUnderKeyCap(userId: string, expiredBefore: Date): Promise<void> {
    const live = await this.keys.countLive(userId, expiredBefore, MAX_LIVE_KEYS_PER_USER + 1);
    if (live > MAX_LIVE_KEYS_PER_USER)
      throw new HttpException(TOO_MANY_KEYS, HttpStatus.TOO_MANY_REQUESTS);
  }

  private answerAgain(
    context: ExecutionContext,
    keptFingerprint: string,
    fingerprint: string,
    found: { responseStatus: number | null; responseBody: string | null },
  ): Observable<unknown> {
    if (keptFingerprint !== fingerprint) throw new UnprocessableEntityException(DIFFERENT_REQUEST);
    if (found.responseStatus === null || found.responseBody === null)
      throw new ConflictException(IN_PROGRESS);
    context.switchToHttp().getResponse<Response>().set('Idempotent-Replayed', 'true');
    const body = JSON.parse(found.responseBody) as unknown;
    // An error answer goes out through the error filter, as it did the first time.
    if (found.responseStatus >= 400)
      throw new HttpException(body as Record<string, unknown>, found.responseStatus);
    return of(body);
  }

  /** The work committed: its answer is kept with it, or the key goes (the answer was too large). */
  private async settleSuccess(held: HeldKey): Promise<void> {
    if (!held.answerKept) await this.settle(() => this.keys.release(held));
  }

  /**
   * Statements that only touch an unanswered key: when the work kept its answer and something
   * failed after its commit, that answer stays the key's.
   */
  private async settleFailure(held: HeldKey, error: unknown, request: Request): Promise<never> {
    const status = error instanceof HttpException ? error.getStatus() : 500;
    if (status >= 500 || status === Number(HttpStatus.TOO_MANY_REQUESTS)) {
      await this.settle(() => this.keys.release(held));
    } else {
      // The body the error filter writes for it: kept, so a retry reads the same answer.
      const { body } = this.errors.describe(error, request);
      await this.settle(async () => {
        const kept = keptBody(body, withoutEchoedInput(body));
        if (kept === null) await this.keys.release(held);
        else await this.keys.complete(held, status, kept);
      });
    }
    throw error;
  }

  /**
   * A key that cannot be settled must not turn the answer into an error. The key then stays in
   * progress until it counts as abandoned.
   */
  private async settle(write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (error) {
      this.logger.warn({ err: error }, 'Idempotency-Key not settled');
    }
  }
}
