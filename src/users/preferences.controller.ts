import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiProperty, ApiTags } from '@nestjs/swagger';
import { DIGEST_FREQUENCIES } from '../attention/preferences';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser } from '../common/decorators/auth.decorators';
import { ApiCredentials, ApiRoute } from '../common/openapi/api-route.decorator';
import { PreferencesService } from './preferences.service';

const TIME = { type: String, example: '22:00', description: 'HH:MM, in the time zone' };

export class QuietHoursDto {
  @ApiProperty(TIME)
  start: string;

  @ApiProperty({ ...TIME, description: 'HH:MM, exclusive; may be before start (crosses midnight)' })
  end: string;
}

export class DigestScheduleDto {
  @ApiProperty({ enum: DIGEST_FREQUENCIES, default: 'daily' })
  frequency: (typeof DIGEST_FREQUENCIES)[number];

  @ApiProperty({ ...TIME, default: '08:00' })
  at: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 7, default: 1, description: '1 = Monday' })
  weekday: number;
}

/** `GET`/`PUT /api/v1/users/me/preferences` (docs/attention.md, "Preferences"). */
@ApiExtraModels(QuietHoursDto, DigestScheduleDto)
export class PreferencesResponse {
  @ApiProperty({ example: 'Europe/Paris', default: 'UTC', description: 'An IANA time zone' })
  time_zone: string;

  @ApiProperty({ type: QuietHoursDto, nullable: true })
  quiet_hours: QuietHoursDto | null;

  @ApiProperty({ type: DigestScheduleDto })
  digest: DigestScheduleDto;
}

@ApiTags('users')
@ApiCredentials()
@Controller('api/v1/users/me/preferences')
export class PreferencesController {
  constructor(private readonly preferences: PreferencesService) {}

  @Get()
  @ApiRoute({
    summary: "The caller's time zone, quiet hours and digest schedule",
    response: PreferencesResponse,
  })
  get(@CurrentUser() caller: AuthenticatedUser): Promise<PreferencesResponse> {
    return this.preferences.get(caller.id);
  }

  @Put()
  @ApiBody({
    type: PreferencesResponse,
    description: 'Each object named replaces the stored one whole; the others stay',
  })
  @ApiRoute({
    summary: "Change the caller's preferences",
    response: PreferencesResponse,
    errors: [400, 413, 422],
  })
  put(
    @CurrentUser() caller: AuthenticatedUser,
    @Body() body: Record<string, unknown>,
  ): Promise<PreferencesResponse> {
    return this.preferences.update(caller.id, body);
  }
}
