import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TestApp } from '../support/test-app';

/** The reference client (docs/api.md, "MCP"): the SDK's `Client` over Streamable HTTP. */
export async function connectMcp(testApp: TestApp, authorization: string): Promise<Client> {
  const client = new Client({ name: 'e2e', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', testApp.baseUrl), {
    requestInit: { headers: { Authorization: authorization } },
  });
  await client.connect(transport);
  return client;
}

/** Calls a tool and answers its result as the SDK gives it. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The text of a result's first content item. */
export function textOf(result: CallToolResult): string {
  const [first] = result.content;
  return first?.type === 'text' ? first.text : '';
}
