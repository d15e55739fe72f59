import type { AuthenticatedUser } from '../auth/authenticated-user';
import { defineOperation } from '../common/operations/operation';
import type { UsageQueryDto } from './dto/usage-query.dto';
import { UsageService } from './usage.service';

/** The caller's usage in a month (docs/architecture.md, "One adapter per operation"). */
export const getUsage = defineOperation({
  service: UsageService,
  ids: [],
  callsModel: false,
  run: (usage, caller: AuthenticatedUser, _ids, query: UsageQueryDto) =>
    usage.monthlyUsage(caller, query.month),
});
