import { InvalidPayloadError } from '../common/domain-errors.js';

/**
 * How a source's webhook requests are encoded: which media types it sends and how the bytes become
 * a value. JSON for every source but Twilio, whose webhooks are HTML form posts.
 */
export interface BodyFormat {
  /** Named in the 400 a wrong Content-Type gets. */
  readonly mediaType: string;
  accepts(mediaType: string): boolean;
  /** The UTF-8 text as a value; throws InvalidPayloadError when it is not one. */
  decode(text: string): unknown;
}

const JSON_TYPE = /^application\/(?:json|[^/;\s]+\+json)$/;

export const JSON_BODY: BodyFormat = {
  mediaType: 'application/json',
  accepts: (type) => JSON_TYPE.test(type),
  decode(text) {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new InvalidPayloadError(`body is not valid JSON: ${(error as Error).message}`);
    }
  },
};

/**
 * `application/x-www-form-urlencoded`, decoded to an object of strings; a name sent more than
 * once keeps every value, in order, as an array. Built with Object.fromEntries, so a parameter
 * named `__proto__` is data, never the object's prototype.
 */
export const FORM_BODY: BodyFormat = {
  mediaType: 'application/x-www-form-urlencoded',
  accepts: (type) => type === 'application/x-www-form-urlencoded',
  decode(text) {
    const values = new Map<string, string[]>();
    for (const [name, value] of new URLSearchParams(text)) {
      const seen = values.get(name);
      if (seen) seen.push(value);
      else values.set(name, [value]);
    }
    return Object.fromEntries([...values].map(([name, list]) => [name, list.length === 1 ? list[0] : list]));
  },
};
