import { ApiProperty } from '@nestjs/swagger';
import { TimestampProperty, UuidProperty } from '../common/openapi/schema-properties';
import type { ApiKeyEntity, ApiKeyState } from './api-key.entity';

export class ApiKeyResponse {
  @UuidProperty()
  id: string;

  @ApiProperty({ description: 'Redacted key: `sk_...` and its last five characters' })
  key_prefix: string;

  @ApiProperty()
  name: string;

  @TimestampProperty()
  created_at: string;

  @TimestampProperty({ nullable: true })
  last_used_at: string | null;

  @ApiProperty({ enum: ['active', 'revoked'] })
  state: ApiKeyState;
}

/** The create answer: the only time the full key is shown. */
export class CreatedApiKeyResponse extends ApiKeyResponse {
  @ApiProperty({ description: 'The full key (`sk_` and 32 characters); shown only here' })
  key: string;
}

export class ApiKeyRevokedResponse {
  @ApiProperty({ example: 'API key revoked' })
  message: string;

  @UuidProperty()
  id: string;
}

export function toApiKeyResponse(record: ApiKeyEntity): ApiKeyResponse {
  return {
    id: record.id,
    key_prefix: record.keyPrefix,
    name: record.name,
    created_at: record.createdAt.toISOString(),
    last_used_at: record.lastUsedAt ? record.lastUsedAt.toISOString() : null,
    state: record.state,
  };
}
