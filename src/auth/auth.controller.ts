import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentUser, JwtOnly } from '../common/decorators/auth.decorators';
import { ApiCredentials, ApiRoute } from '../common/openapi/api-route.decorator';
import { UuidParamPipe } from '../common/pipes/uuid-param.pipe';
import {
  CallerRolesResponse,
  SyncedUserResponse,
  toSyncedUserResponse,
  toUserResponse,
  UserResponse,
} from '../users/user.mapper';
import {
  ApiKeyResponse,
  ApiKeyRevokedResponse,
  CreatedApiKeyResponse,
  toApiKeyResponse,
} from './api-key.mapper';
import { ApiKeyService } from './api-key.service';
import { AuthService } from './auth.service';
import type { AuthenticatedUser } from './authenticated-user';
import { CreateApiKeyDto } from './dto/create-api-key.dto';

@ApiTags('auth')
@ApiCredentials()
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly apiKeys: ApiKeyService,
  ) {}

  @Post('sync-user')
  @HttpCode(200)
  @JwtOnly()
  @ApiRoute({
    summary: "Create or update the caller's user from an identity-provider JWT",
    description: 'Takes only a JWT: an API key gets 401.',
    response: SyncedUserResponse,
  })
  async syncUser(@CurrentUser() caller: AuthenticatedUser): Promise<SyncedUserResponse> {
    return toSyncedUserResponse(await this.auth.syncUser(caller));
  }

  @Get('me')
  @ApiRoute({ summary: 'The calling user', response: UserResponse })
  me(@CurrentUser() caller: AuthenticatedUser): UserResponse {
    return toUserResponse(caller.user);
  }

  @Get('me/roles')
  @ApiRoute({ summary: "The calling user's roles", response: CallerRolesResponse })
  roles(@CurrentUser() caller: AuthenticatedUser): CallerRolesResponse {
    return { is_admin: caller.isAdmin };
  }

  @Post('api-keys')
  @HttpCode(200)
  @ApiRoute({
    summary: 'Create an API key (the full key is shown only here)',
    description: 'At most 50 active keys per user: the 51st answers 409.',
    response: CreatedApiKeyResponse,
    errors: [409, 413, 422],
  })
  async createApiKey(
    @CurrentUser() caller: AuthenticatedUser,
    @Body() body: CreateApiKeyDto,
  ): Promise<CreatedApiKeyResponse> {
    const created = await this.apiKeys.create(caller.id, body.name);
    return { ...toApiKeyResponse(created.record), key: created.key };
  }

  @Get('api-keys')
  @ApiRoute({ summary: "List the caller's active API keys", response: [ApiKeyResponse] })
  async listApiKeys(@CurrentUser() caller: AuthenticatedUser): Promise<ApiKeyResponse[]> {
    return (await this.apiKeys.listActive(caller.id)).map(toApiKeyResponse);
  }

  @Delete('api-keys/:id')
  @ApiRoute({
    summary: 'Revoke an API key',
    response: ApiKeyRevokedResponse,
    errors: [404, 422],
  })
  async revokeApiKey(
    @CurrentUser() caller: AuthenticatedUser,
    @Param('id', UuidParamPipe) id: string,
  ): Promise<ApiKeyRevokedResponse> {
    await this.apiKeys.revoke(caller.id, id);
    return { message: 'API key revoked', id };
  }
}
