import { ApiProperty } from '@nestjs/swagger';
import { TimestampProperty, UuidProperty } from '../common/openapi/schema-properties';
import type { UserEntity, UserState } from './user.entity';

export class UserResponse {
  @UuidProperty()
  id: string;

  @ApiProperty({ type: String, nullable: true })
  email: string | null;

  @ApiProperty({ enum: ['active', 'deactivated'] })
  state: UserState;

  @TimestampProperty()
  created_at: string;
}

export class SyncedUserResponse extends UserResponse {
  @ApiProperty({ type: String, nullable: true, description: "The identity provider's user id" })
  clerk_user_id: string | null;
}

/** `GET /auth/me/roles`: whether the caller holds the admin role for this request. */
export class CallerRolesResponse {
  @ApiProperty({
    description: 'Whether the caller has the admin role (the console shows its Admin page)',
  })
  is_admin: boolean;
}

export function toUserResponse(user: UserEntity): UserResponse {
  return {
    id: user.id,
    email: user.email,
    state: user.state,
    created_at: user.createdAt.toISOString(),
  };
}

export function toSyncedUserResponse(user: UserEntity): SyncedUserResponse {
  return { ...toUserResponse(user), clerk_user_id: user.clerkUserId };
}
