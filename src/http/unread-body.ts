import type { NextFunction, Request, Response } from 'express';

/**
 * No route served by Express takes a body (the webhook requests are read by WebhookIngress,
 * in front of Express; the operator API's POST routes take their parameters in the query), so
 * Express reads none: no body parser is registered. When an answer goes out before the client
 * has sent its whole body (a 404, a 401 without a key), the connection is closed with it rather
 * than kept alive, which would make Node read and discard the rest of the upload first.
 */
export function closeWhenBodyUnread(req: Request, res: Response, next: NextFunction): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: Parameters<typeof writeHead>) {
    if (!req.complete) this.setHeader('Connection', 'close');
    return writeHead.apply(this, args);
  } as typeof writeHead;
  next();
}
