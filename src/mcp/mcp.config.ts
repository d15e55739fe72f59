import { defineConfig, type ConfigOf } from '../config/config-slice';

export const mcpConfig = defineConfig('mcp', (read) => ({
  /** `MCP_ENABLED`: serve the MCP endpoint at `/mcp` (false: 404 there). */
  enabled: read.boolean('MCP_ENABLED', true),
}));
export type McpConfig = ConfigOf<typeof mcpConfig>;
