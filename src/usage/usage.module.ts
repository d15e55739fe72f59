import { Module } from '@nestjs/common';
import { ModelCallQuotaService } from './model-call-quota.service';
import { UsageController } from './usage.controller';
import { UsageRepository } from './usage.repository';
import { UsageService } from './usage.service';

@Module({
  controllers: [UsageController],
  providers: [UsageRepository, UsageService, ModelCallQuotaService],
  exports: [UsageService, ModelCallQuotaService],
})
export class UsageModule {}
