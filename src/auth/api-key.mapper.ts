import type { ApiKeyEntity } from './api-key.entity';

export interface ApiKeyResponse {
  id: string;
  key_prefix: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  state: string;
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
