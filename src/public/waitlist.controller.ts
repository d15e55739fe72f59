import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '../common/decorators/auth.decorators';
import { ApiRoute } from '../common/openapi/api-route.decorator';
import { IpRateLimit } from '../common/rate-limit/rate-limit.decorator';
import { JoinWaitlistDto } from './dto/join-waitlist.dto';
import { WaitlistJoined, WaitlistService } from './waitlist.service';

@ApiTags('public')
@Controller('public/waitlist')
export class WaitlistController {
  constructor(private readonly waitlist: WaitlistService) {}

  @Post()
  @HttpCode(200)
  @Public()
  @IpRateLimit('waitlist', 5)
  @ApiRoute({
    summary: 'Join the waitlist',
    response: WaitlistJoined,
    errors: [409, 413, 422],
  })
  join(@Body() body: JoinWaitlistDto): Promise<WaitlistJoined> {
    return this.waitlist.joinWaitlist(body.email);
  }
}
