import type { SchemaObject } from '@nestjs/swagger';
import { CHANNELS } from './channel-registry';
import type { ChannelDefinition, ChannelField } from './notification-channel';
import { DELIVERY_MODES, NOTIFICATION_EVENTS } from './notification-types';

/** The API document's schemas of the channels' configs (docs/api.md, "Notifications"). */
export interface NotificationSchemas {
  /** One per channel, for the document's components: `EmailNotificationConfig`, ... */
  components: Record<string, SchemaObject>;
  /** One element of `notifications`: one of them, told apart by `type`. */
  item: SchemaObject;
}

/** `WebhookNotificationConfig`: the component that holds a channel's config schema. */
function componentName(type: string): string {
  return `${type.charAt(0).toUpperCase()}${type.slice(1)}NotificationConfig`;
}

const EVENTS: SchemaObject = {
  type: 'array',
  items: { type: 'string', enum: [...NOTIFICATION_EVENTS] },
  description: 'Absent: every event',
};

const DELIVERY: SchemaObject = {
  type: 'string',
  enum: [...DELIVERY_MODES],
  description:
    "instant (absent): each event is sent as it happens; digest: the events go into the owner's digest, one message per destination per period",
};

/** Set by the service when a config pauses itself (docs/attention.md); cleared on resume. */
const PAUSE: Record<string, SchemaObject> = {
  paused_at: {
    type: 'string',
    format: 'date-time',
    readOnly: true,
    description: 'When the config paused itself after deliveries in a row failed',
  },
  pause_reason: {
    type: 'string',
    readOnly: true,
    description: '`<N> deliveries in a row failed: <last error>`',
  },
};

function fieldSchema(field: ChannelField): SchemaObject {
  const described: SchemaObject = {
    description: field.hint ? `${field.label}. ${field.hint}` : field.label,
    ...(field.default === undefined ? {} : { default: field.default }),
  };
  switch (field.input) {
    case 'email':
      return { type: 'string', format: 'email', ...described };
    case 'url':
      return { type: 'string', format: 'uri', ...described };
    case 'choice':
      return { type: 'string', enum: [...(field.choices ?? [])], ...described };
    case 'headers':
      return { type: 'object', additionalProperties: { type: 'string' }, ...described };
    default:
      return { type: 'string', ...described };
  }
}

function channelSchema(definition: ChannelDefinition): SchemaObject {
  const { fields, generatedSecret } = definition;
  return {
    type: 'object',
    description: `A ${definition.label} config`,
    required: [
      'type',
      ...fields
        .filter((field) => field.optional !== true && field.default === undefined)
        .map((field) => field.name),
    ],
    properties: {
      type: { type: 'string', enum: [definition.type] },
      events: EVENTS,
      delivery: DELIVERY,
      ...PAUSE,
      ...Object.fromEntries(fields.map((field) => [field.name, fieldSchema(field)])),
      ...(generatedSecret
        ? {
            [generatedSecret.name]: {
              type: 'string',
              readOnly: true,
              description: `${generatedSecret.label}, made by the service (owner only)`,
            },
          }
        : {}),
    },
  };
}

/** What each type's config holds besides `type`, `events` and `delivery`: `ntfy: url, token?; ...`. */
function fieldsSummary(channels: readonly ChannelDefinition[]): string {
  return channels
    .map(({ type, fields }) => {
      const names = fields.map(
        (field) =>
          `${field.name}${field.optional === true || field.default !== undefined ? '?' : ''}`,
      );
      return `${type}: ${names.join(', ')}`;
    })
    .join('; ');
}

/** The schemas of `channels`' configs and of one element of `notifications`. */
export function notificationSchemasOf(channels: readonly ChannelDefinition[]): NotificationSchemas {
  const ref = (type: string) => `#/components/schemas/${componentName(type)}`;
  return {
    components: Object.fromEntries(
      channels.map((definition) => [componentName(definition.type), channelSchema(definition)]),
    ),
    item: {
      oneOf: channels.map((definition) => ({ $ref: ref(definition.type) })),
      discriminator: {
        propertyName: 'type',
        mapping: Object.fromEntries(channels.map(({ type }) => [type, ref(type)])),
      },
      description: fieldsSummary(channels),
    },
  };
}

export const NOTIFICATION_SCHEMAS = notificationSchemasOf(CHANNELS);
