import { BadRequestException, Injectable } from '@nestjs/common';
import { attentionConfig, type AttentionConfig } from '../attention/attention.config';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { InjectConfig } from '../config/config-slice';
import type { NotificationConfig } from '../notifications/channels/channel-registry';
import { channelOwner } from '../notifications/channels/notification-channel';
import { NotificationConfigValidator } from '../notifications/channels/notification-config.validator';
import { PageTargetsValidator } from '../pages/targets/page-targets.validator';
import type { PageTarget } from '../pages/page.types';
import {
  readTaskDefinition,
  type TaskDefinition,
  type TaskDefinitionInput,
} from './task-definition';

/**
 * The front door of a task's fields: `readTaskDefinition` with the configured alert limits, and
 * the checks that look outside the request (the hosts of its pages, its notification configs).
 */
@Injectable()
export class TaskDefinitions {
  constructor(
    private readonly pageTargets: PageTargetsValidator,
    private readonly notificationConfigs: NotificationConfigValidator,
    @InjectConfig(attentionConfig) private readonly attention: AttentionConfig,
  ) {}

  /** The definition `input` gives (on `current` for an update); its refusal is a 400. */
  read(input: TaskDefinitionInput, current: TaskDefinition | null): TaskDefinition {
    const reading = readTaskDefinition(input, current, this.attention);
    if (reading.refusal) throw new BadRequestException(reading.refusal.detail);
    return reading.definition;
  }

  /** The SSRF guard for every host of `pages`, resolved as fetches will resolve it. */
  async checkPages(pages: readonly PageTarget[] | null): Promise<void> {
    if (pages !== null) await this.pageTargets.checkHosts(pages);
  }

  /** The configs a request sends, each checked by its channel; `current` keeps stored secrets. */
  notifications(
    caller: AuthenticatedUser,
    sent: unknown[],
    current?: NotificationConfig[],
  ): Promise<NotificationConfig[]> {
    return this.notificationConfigs.validate(sent, channelOwner(caller.user), current);
  }
}
