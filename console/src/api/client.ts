import createClient, { type Middleware } from 'openapi-fetch';
import { authStore } from '../auth/auth-store';
import type { ApiPaths } from './types';

/** An answer other than 2xx, with the API's own message (ErrorDto) when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const auth: Middleware = {
  onRequest({ request }) {
    const key = authStore.key();
    if (key !== null) request.headers.set('Authorization', `Bearer ${key}`);
    return request;
  },
  onResponse({ response }) {
    if (response.status === 401) authStore.rejected();
    return response;
  },
};

/** The typed client of the operator API (same origin), generated from its OpenAPI document. */
export const api = createClient<ApiPaths>({ baseUrl: location.origin });
api.use(auth);

function messageOf(error: unknown, status: number): string {
  if (error && typeof error === 'object' && 'message' in error) {
    const { message } = error as { message: unknown };
    if (Array.isArray(message)) return message.join('; ');
    if (typeof message === 'string') return message;
  }
  return `the API answered ${status}`;
}

/** The answer's data, or an ApiError naming what went wrong. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok || data === undefined) throw new ApiError(response.status, messageOf(error, response.status));
  return data;
}
