/**
 * The bare limit for the API benchmark: `node:http` doing the work of `bare-work.ts` per request,
 * with nothing else: no framework, no ORM, no validation. Run as its own process:
 * `node bare-api-server.js <port>` with DATABASE_URL set.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { callerOf, createTask, findTask, listTasks, type Row } from './bare-work';

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const userId = await callerOf(request.headers.authorization);
  if (!userId) return send(response, 401, { detail: 'Invalid API key' });
  const url = request.url ?? '';
  if (request.method === 'GET' && url === '/api/v1/tasks') {
    return send(response, 200, await listTasks(userId));
  }
  const byId = /^\/api\/v1\/tasks\/([0-9a-f-]{36})$/.exec(url);
  if (request.method === 'GET' && byId) {
    const task = await findTask(byId[1], userId);
    return task === null
      ? send(response, 404, { detail: 'Task not found' })
      : send(response, 200, task);
  }
  if (request.method === 'POST' && url === '/api/v1/tasks') {
    const raw = await readBody(request);
    const key = request.headers['idempotency-key'];
    const task = await createTask(
      userId,
      JSON.parse(raw) as Row,
      raw,
      typeof key === 'string' ? key : undefined,
    );
    return task === null
      ? send(response, 409, { detail: 'Key in use' })
      : send(response, 200, task);
  }
  send(response, 404, { detail: 'Not Found' });
}

createServer((request, response) => {
  handle(request, response).catch((error: unknown) =>
    send(response, 500, { detail: String(error) }),
  );
}).listen(Number(process.argv[2]), '127.0.0.1');
