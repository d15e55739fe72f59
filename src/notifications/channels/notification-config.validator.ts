import { BadRequestException, Injectable } from '@nestjs/common';
import { NotificationChannelRegistry, type NotificationConfig } from './channel-registry';
import type { ChannelOwner } from './notification-channel';
import {
  DELIVERY_MODES,
  NOTIFICATION_EVENTS,
  type DeliveryMode,
  type NotificationEvent,
} from './notification-types';

function invalid(reason: string): BadRequestException {
  return new BadRequestException(`Invalid notification: ${reason}`);
}

/**
 * Validates `notifications` of a create or update request and normalises it for storage: at
 * most one config per type, `events` a subset of the known events, `delivery` instant or
 * digest (kept only when given), the rest checked by the type's channel (which sees the stored config of its type, e.g. to keep a webhook secret).
 */
@Injectable()
export class NotificationConfigValidator {
  constructor(private readonly channels: NotificationChannelRegistry) {}

  async validate(
    input: unknown[],
    owner: ChannelOwner,
    existing: NotificationConfig[] = [],
  ): Promise<NotificationConfig[]> {
    const seen = new Set<string>();
    const result: NotificationConfig[] = [];
    for (const item of input) {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        throw invalid('each notification must be an object with a type');
      }
      const entry = item as Record<string, unknown>;
      const type = entry.type;
      if (!this.channels.has(type)) {
        throw invalid(`type must be one of ${this.channels.types.join(', ')}`);
      }
      if (seen.has(type)) {
        throw new BadRequestException(
          'Multiple notifications of the same type are not supported: at most one of each type per task',
        );
      }
      seen.add(type);
      const events = validEvents(entry.events);
      const delivery = validDelivery(entry.delivery);
      const previous = existing.find((config) => config.type === type);
      const config: NotificationConfig = await this.channels
        .get(type)
        .validate(entry, previous, owner);
      result.push({
        ...config,
        ...(events ? { events } : {}),
        ...(delivery ? { delivery } : {}),
      });
    }
    return result;
  }
}

/** `events`: absent (every event) or a non-empty list of known events, without repeats. */
function validEvents(value: unknown): NotificationEvent[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    value.some((event) => !NOTIFICATION_EVENTS.includes(event as NotificationEvent))
  ) {
    throw invalid(`events must be a non-empty list of ${NOTIFICATION_EVENTS.join(', ')}`);
  }
  return [...new Set(value as NotificationEvent[])];
}

/** `delivery`: absent, or `instant` or `digest` (docs/api.md, "Notifications"). */
function validDelivery(value: unknown): DeliveryMode | undefined {
  if (value === undefined) return undefined;
  if (!(DELIVERY_MODES as readonly unknown[]).includes(value)) {
    throw invalid(`delivery must be ${DELIVERY_MODES.join(' or ')}`);
  }
  return value as DeliveryMode;
}
