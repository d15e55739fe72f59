import { Body, Controller, Get, Patch, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser } from '../common/decorators/auth.decorators';
import { SetUsernameDto } from './dto/set-username.dto';
import { UsernameAvailabilityQueryDto } from './dto/username-availability-query.dto';
import { UsernameService, type UsernameClaimed } from './username.service';

@ApiTags('users')
@ApiBearerAuth()
@Controller('api/v1/users')
export class UsernameController {
  constructor(private readonly usernames: UsernameService) {}

  @Patch('me/username')
  setUsername(
    @CurrentUser() caller: AuthenticatedUser,
    @Body() body: SetUsernameDto,
  ): Promise<UsernameClaimed> {
    return this.usernames.claim(caller.id, body.username);
  }

  @Get('username/available')
  async checkAvailability(
    @Query() query: UsernameAvailabilityQueryDto,
  ): Promise<{ available: boolean }> {
    return { available: await this.usernames.isAvailable(query.username) };
  }
}
