import { Module } from '@nestjs/common';
import { PreferencesController } from './preferences.controller';
import { PreferencesService } from './preferences.service';
import { UserRepository } from './user.repository';
import { UsernameController } from './username.controller';
import { UsernameService } from './username.service';
import { UsersService } from './users.service';

@Module({
  controllers: [UsernameController, PreferencesController],
  providers: [UsersService, UsernameService, UserRepository, PreferencesService],
  exports: [UsersService, UserRepository],
})
export class UsersModule {}
