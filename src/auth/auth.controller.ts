import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentUser, JwtOnly } from '../common/decorators/auth.decorators';
import { UuidParamPipe } from '../common/pipes/uuid-param.pipe';
import { toSyncedUserResponse, toUserResponse, type SyncedUserResponse, type UserResponse } from '../users/user.mapper';
import { toApiKeyResponse, type ApiKeyResponse } from './api-key.mapper';
import { ApiKeyService } from './api-key.service';
import { AuthService } from './auth.service';
import type { AuthenticatedUser } from './authenticated-user';
import { CreateApiKeyDto } from './dto/create-api-key.dto';

@ApiTags('auth')
@ApiBearerAuth()
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly apiKeys: ApiKeyService,
  ) {}

  @Post('sync-user')
  @HttpCode(200)
  @JwtOnly()
  async syncUser(@CurrentUser() caller: AuthenticatedUser): Promise<SyncedUserResponse> {
    return toSyncedUserResponse(await this.auth.syncUser(caller));
  }

  @Get('me')
  me(@CurrentUser() caller: AuthenticatedUser): UserResponse {
    return toUserResponse(caller.user);
  }

  @Post('api-keys')
  @HttpCode(200)
  async createApiKey(
    @CurrentUser() caller: AuthenticatedUser,
    @Body() body: CreateApiKeyDto,
  ): Promise<ApiKeyResponse & { key: string }> {
    const created = await this.apiKeys.create(caller.id, body.name);
    return { ...toApiKeyResponse(created.record), key: created.key };
  }

  @Get('api-keys')
  async listApiKeys(@CurrentUser() caller: AuthenticatedUser): Promise<ApiKeyResponse[]> {
    return (await this.apiKeys.listActive(caller.id)).map(toApiKeyResponse);
  }

  @Delete('api-keys/:id')
  async revokeApiKey(
    @CurrentUser() caller: AuthenticatedUser,
    @Param('id', UuidParamPipe) id: string,
  ): Promise<{ message: string; id: string }> {
    await this.apiKeys.revoke(caller.id, id);
    return { message: 'API key revoked', id };
  }
}
