import {
  Catch,
  Injectable,
  UnauthorizedException,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import type { Response } from 'express';
import { HttpErrorFilter } from '../common/filters/http-error.filter';

/**
 * A 401 of `/mcp` names the scheme to use (`WWW-Authenticate: Bearer`, RFC 6750 §3), which MCP
 * clients read to tell a missing credential from another failure; the body is the API's own.
 */
@Catch(UnauthorizedException)
@Injectable()
export class McpUnauthorizedFilter implements ExceptionFilter {
  constructor(private readonly errors: HttpErrorFilter) {}

  catch(exception: UnauthorizedException, host: ArgumentsHost): void {
    host.switchToHttp().getResponse<Response>().set('WWW-Authenticate', 'Bearer');
    this.errors.catch(exception, host);
  }
}
