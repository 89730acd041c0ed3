import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StoredResponse } from './idempotency-store';
import { LIMITS } from '../api/schemas';

/** What a body that is not JSON parses to, told apart from a body that is absent. */
export const INVALID_JSON = Symbol('invalid JSON');

export function parseJsonBody(body: string): unknown {
  if (body === '') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return INVALID_JSON;
  }
}

/** The body as text; past the API's limit only one byte more is kept, so the size check can refuse it. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= LIMITS.maxBodyBytes + 1) chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function writeResponse(res: ServerResponse, response: StoredResponse, headers: Record<string, string> = {}): void {
  const isJson = response.body.startsWith('{') || response.body.startsWith('[');
  // Set one by one, not through writeHead, so the request log can read Retry-After back.
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.writeHead(response.status, { 'content-type': isJson ? 'application/json' : 'text/plain' });
  res.end(response.body);
}

/** A control-surface answer: JSON, `{"error": …}` when refused. */
export function writeJson(res: ServerResponse, status: number, data: unknown, headers: Record<string, string> = {}): void {
  writeResponse(res, { status, body: JSON.stringify(data) }, headers);
}

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
