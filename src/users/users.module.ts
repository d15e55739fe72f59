import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UserEntity } from './user.entity';
import { UsernameController } from './username.controller';
import { UsernameService } from './username.service';
import { UsersService } from './users.service';

@Module({
  imports: [TypeOrmModule.forFeature([UserEntity])],
  controllers: [UsernameController],
  providers: [UsersService, UsernameService],
  exports: [UsersService],
})
export class UsersModule {}
