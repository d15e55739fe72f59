import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsersModule } from '../users/users.module';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeyService } from './api-key.service';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { JwtVerifierService } from './jwt-verifier.service';

@Module({
  imports: [TypeOrmModule.forFeature([ApiKeyEntity]), UsersModule],
  controllers: [AuthController],
  providers: [AuthService, ApiKeyService, JwtVerifierService],
  exports: [AuthService],
})
export class AuthModule {}
