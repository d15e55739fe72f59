import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { AuthenticatedUser } from '../../auth/authenticated-user';
import { CurrentUser } from '../../common/decorators/auth.decorators';
import { ApiCredentials, ApiRoute } from '../../common/openapi/api-route.decorator';
import { EmailVerificationRateLimit } from '../../common/rate-limit/rate-limit.decorator';
import { channelOwner } from '../channels/notification-channel';
import {
  ConfirmEmailVerificationDto,
  EmailVerificationListItem,
  EmailVerificationResponse,
  RequestEmailVerificationDto,
} from './dto/email-verification.dto';
import { EmailVerificationService } from './email-verification.service';

/** Verified email recipients (docs/api.md). */
@ApiTags('email-verifications')
@ApiCredentials()
@Controller('api/v1/email-verifications')
export class EmailVerificationController {
  constructor(private readonly verifications: EmailVerificationService) {}

  @Post()
  @HttpCode(200)
  @EmailVerificationRateLimit()
  @ApiRoute({
    summary: 'Mail a 6-digit code to an address the caller wants to notify (5 requests an hour)',
    response: EmailVerificationResponse,
    errors: [413, 422],
  })
  request(
    @CurrentUser() caller: AuthenticatedUser,
    @Body() body: RequestEmailVerificationDto,
  ): Promise<EmailVerificationResponse> {
    return this.verifications.requestCode(channelOwner(caller.user), body.email);
  }

  @Post('confirm')
  @HttpCode(200)
  @ApiRoute({
    summary: 'Confirm an address with the code mailed to it',
    response: EmailVerificationResponse,
    errors: [400, 413, 422],
  })
  confirm(
    @CurrentUser() caller: AuthenticatedUser,
    @Body() body: ConfirmEmailVerificationDto,
  ): Promise<EmailVerificationResponse> {
    return this.verifications.confirm(channelOwner(caller.user), body.email, body.code);
  }

  @Get()
  @ApiRoute({
    summary: "The caller's email addresses and their verification state",
    response: [EmailVerificationListItem],
  })
  list(@CurrentUser() caller: AuthenticatedUser): Promise<EmailVerificationListItem[]> {
    return this.verifications.list(channelOwner(caller.user));
  }

  @Delete(':email')
  @HttpCode(204)
  @ApiRoute({ summary: 'Remove a verified or pending address', status: 204, errors: [404] })
  async remove(
    @CurrentUser() caller: AuthenticatedUser,
    @Param('email') email: string,
  ): Promise<void> {
    await this.verifications.remove(channelOwner(caller.user), email);
  }
}
