import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedUser } from '../../auth/authenticated-user';
import { CurrentUser } from '../../common/decorators/auth.decorators';
import { EmailVerificationRateLimit } from '../../common/rate-limit/rate-limit.decorator';
import { channelOwner } from '../channels/notification-channel';
import {
  ConfirmEmailVerificationDto,
  RequestEmailVerificationDto,
  type EmailVerificationListItem,
  type EmailVerificationResponse,
} from './dto/email-verification.dto';
import { EmailVerificationService } from './email-verification.service';

/** Verified email recipients (contract section 5). */
@ApiTags('email-verifications')
@ApiBearerAuth()
@Controller('api/v1/email-verifications')
export class EmailVerificationController {
  constructor(private readonly verifications: EmailVerificationService) {}

  @Post()
  @HttpCode(200)
  @EmailVerificationRateLimit()
  request(
    @CurrentUser() caller: AuthenticatedUser,
    @Body() body: RequestEmailVerificationDto,
  ): Promise<EmailVerificationResponse> {
    return this.verifications.requestCode(channelOwner(caller.user), body.email);
  }

  @Post('confirm')
  @HttpCode(200)
  confirm(
    @CurrentUser() caller: AuthenticatedUser,
    @Body() body: ConfirmEmailVerificationDto,
  ): Promise<EmailVerificationResponse> {
    return this.verifications.confirm(channelOwner(caller.user), body.email, body.code);
  }

  @Get()
  list(@CurrentUser() caller: AuthenticatedUser): Promise<EmailVerificationListItem[]> {
    return this.verifications.list(channelOwner(caller.user));
  }

  @Delete(':email')
  @HttpCode(204)
  async remove(
    @CurrentUser() caller: AuthenticatedUser,
    @Param('email') email: string,
  ): Promise<void> {
    await this.verifications.remove(channelOwner(caller.user), email);
  }
}
