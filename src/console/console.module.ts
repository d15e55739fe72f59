import { Module } from '@nestjs/common';
import { ConsoleAssets } from './console-assets';
import { ConsoleRootController } from './console-root.controller';
import { ConsoleController } from './console.controller';

/** The web console at `/console` (docs/api.md, "Console"); off with `CONSOLE_ENABLED=false`. */
@Module({
  controllers: [ConsoleController, ConsoleRootController],
  providers: [ConsoleAssets],
})
export class ConsoleModule {}
