import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { AuthService } from '../auth.service';
import type { AuthenticatedUser } from '../authenticated-user';

/** Passport strategy `api-key`: an `sk_...` key sent as a Bearer token. */
@Injectable()
export class ApiKeyStrategy extends PassportStrategy(Strategy, 'api-key') {
  constructor(private readonly auth: AuthService) {
    super();
  }

  validate(key: string): Promise<AuthenticatedUser> {
    return this.auth.authenticateApiKey(key);
  }
}
