import type { UserEntity } from './user.entity';

export interface UserResponse {
  id: string;
  email: string | null;
  state: string;
  created_at: string;
}

export interface SyncedUserResponse extends UserResponse {
  clerk_user_id: string | null;
}

export function toUserResponse(user: UserEntity): UserResponse {
  return { id: user.id, email: user.email, state: user.state, created_at: user.createdAt.toISOString() };
}

export function toSyncedUserResponse(user: UserEntity): SyncedUserResponse {
  return { ...toUserResponse(user), clerk_user_id: user.clerkUserId };
}
