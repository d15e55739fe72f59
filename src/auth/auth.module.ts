import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { UsersModule } from '../users/users.module';
import { ApiKeyRepository } from './api-key.repository';
import { ApiKeyService } from './api-key.service';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { CredentialAuthenticator } from './credential-authenticator';
import { JwtVerifierService } from './jwt-verifier.service';
import { ApiKeyStrategy } from './strategies/api-key.strategy';
import { JwtStrategy } from './strategies/jwt.strategy';

/** API keys and identity-provider JWTs, as the passport strategies `api-key` and `jwt`. */
@Module({
  imports: [UsersModule, PassportModule],
  controllers: [AuthController],
  providers: [
    AuthService,
    ApiKeyService,
    ApiKeyRepository,
    JwtVerifierService,
    ApiKeyStrategy,
    JwtStrategy,
    CredentialAuthenticator,
  ],
  exports: [AuthService, CredentialAuthenticator],
})
export class AuthModule {}
