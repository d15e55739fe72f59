import { Body, Controller, Get, Patch, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser } from '../common/decorators/auth.decorators';
import { ApiCredentials, ApiRoute } from '../common/openapi/api-route.decorator';
import { SetUsernameDto } from './dto/set-username.dto';
import { UsernameAvailabilityQueryDto } from './dto/username-availability-query.dto';
import { UsernameAvailability, UsernameClaimed, UsernameService } from './username.service';

@ApiTags('users')
@ApiCredentials()
@Controller('api/v1/users')
export class UsernameController {
  constructor(private readonly usernames: UsernameService) {}

  @Patch('me/username')
  @ApiRoute({
    summary: "Set the caller's username (once)",
    response: UsernameClaimed,
    errors: [400, 409, 413, 422],
  })
  setUsername(
    @CurrentUser() caller: AuthenticatedUser,
    @Body() body: SetUsernameDto,
  ): Promise<UsernameClaimed> {
    return this.usernames.claim(caller.id, body.username);
  }

  @Get('username/available')
  @ApiRoute({
    summary: 'Whether a username can be claimed',
    response: UsernameAvailability,
    errors: [422],
  })
  async checkAvailability(
    @Query() query: UsernameAvailabilityQueryDto,
  ): Promise<UsernameAvailability> {
    return { available: await this.usernames.isAvailable(query.username) };
  }
}
