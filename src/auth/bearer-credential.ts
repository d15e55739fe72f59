import { UnauthorizedException } from '@nestjs/common';

/**
 * The credential of an `Authorization: Bearer <credential>` header, the scheme compared
 * case-insensitively. A missing or blank header, and a header of another form, are 401s with
 * messages of their own (docs/api.md, "Authentication").
 */
export function bearerCredential(header: string | undefined): string {
  const value = header?.trim() ?? '';
  if (value === '') throw new UnauthorizedException('Authorization header missing');
  const match = /^Bearer\s+(\S+)$/i.exec(value);
  if (!match)
    throw new UnauthorizedException('Authorization header must be "Bearer <API key or JWT>"');
  return match[1];
}
