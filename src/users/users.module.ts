import { Module } from '@nestjs/common';
import { UserRepository } from './user.repository';
import { UsernameController } from './username.controller';
import { UsernameService } from './username.service';
import { UsersService } from './users.service';

@Module({
  controllers: [UsernameController],
  providers: [UsersService, UsernameService, UserRepository],
  exports: [UsersService, UserRepository],
})
export class UsersModule {}
