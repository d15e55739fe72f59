import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { invalidUuid } from '../errors/validation-issue';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}

/** A path id that is not a UUID is a 422 with `loc` `["path", <name>]`, as any invalid input. */
@Injectable()
export class UuidParamPipe implements PipeTransform<string, string> {
  transform(value: string, metadata: ArgumentMetadata): string {
    if (!isUuid(value)) throw invalidUuid('path', metadata.data ?? 'id', value);
    return value.toLowerCase();
  }
}
