import { Controller, Get, Redirect } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../common/decorators/auth.decorators';

/**
 * `GET /` sends a browser to the console (docs/api.md, "Console"). Registered with the console,
 * so with `CONSOLE_ENABLED=false` `/` is no route at all: a JSON 404 like any unknown path.
 */
@ApiExcludeController()
@Public()
@Controller()
export class ConsoleRootController {
  @Get()
  @Redirect('/console', 302)
  root(): void {}
}
