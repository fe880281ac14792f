import { createHmac } from 'node:crypto';
import { safeEqual } from '../../common/safe-equal.js';
import type { SignatureFailure } from '../shared/signatures.js';

/** What Twilio signed, as the HTTP layer received it. */
export interface TwilioSignedRequest {
  /** The full public URL Twilio requested, query string included, exactly as configured at Twilio. */
  url: string;
  /**
   * The form parameters (never the query string): a repeated name as a list. The service passes
   * the canonical TwilioParams here and parses that same object afterwards.
   */
  params: Readonly<Record<string, string | readonly string[]>>;
  /** X-Twilio-Signature. */
  signature: string | undefined;
  /** X-Twilio-Webhooks-Signature-Settings, present when a SharedKey signed the request. */
  settings: string | undefined;
}

export interface TwilioCredentials {
  /** Account Auth Tokens (primary and secondary during a rotation). */
  authTokens: readonly string[];
  /** SharedKey secrets, for webhooks a Webhook Rule signs with a SharedKey. */
  sharedKeys: readonly string[];
}

/** The algorithms Twilio names in the settings header, by Node's hash names. */
const HASHES: ReadonlyMap<string, string> = new Map([
  ['HMAC_SHA1', 'sha1'],
  ['HMAC_SHA256', 'sha256'],
]);

/** Standard base64, as Twilio encodes the digest. */
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const AUTHORITY = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/is;
const DEFAULT_PORTS: ReadonlyMap<string, string> = new Map([
  ['https://', ':443'],
  ['http://', ':80'],
]);

/**
 * X-Twilio-Signature: base64 HMAC of the URL followed by every form parameter's name and
 * value, names sorted (https://www.twilio.com/docs/usage/webhooks/webhooks-security; the
 * same algorithm as twilio-node's lib/webhooks/webhooks.js). Without a settings header the key
 * is an Auth Token and the hash SHA-1; with one (`key=<id>,algorithm=HMAC_SHA256`) the key is a
 * SharedKey secret and the hash the one it names
 * (https://www.twilio.com/docs/usage/webhooks/webhook-shared-keys).
 *
 * Form bodies only: JSON bodies are signed over the URL alone, with the body's digest in a
 * `bodySHA256` query parameter; Twilio's messaging webhooks are never JSON, so that variant
 * is not accepted here.
 */
export function checkTwilioSignature(input: TwilioSignedRequest, credentials: TwilioCredentials): SignatureFailure | null {
  if (!input.signature) return 'missing';
  const offered = input.signature.trim();
  if (!BASE64.test(offered)) return 'malformed';
  const scheme = schemeOf(input.settings, credentials);
  if (typeof scheme === 'string') return scheme;
  const signedParams = serializeParams(input.params);
  // Every secret and every URL form is computed and compared (no early exit), so timing does
  // not tell which one matched, or whether one did before the last.
  const matches = scheme.secrets.flatMap((secret) =>
    urlForms(input.url).map((url) => safeEqual(offered, createHmac(scheme.hash, secret).update(url + signedParams, 'utf8').digest('base64'))),
  );
  return matches.includes(true) ? null : 'mismatch';
}

/**
 * Which secrets and hash apply. The header's key id is not matched against anything: the
 * configuration holds SharedKey secrets only, and trying each keeps a key rotation working.
 * No algorithm in the header means HMAC_SHA1, as twilio-node reads it.
 */
function schemeOf(settings: string | undefined, credentials: TwilioCredentials): { hash: string; secrets: readonly string[] } | SignatureFailure {
  if (!settings?.trim()) return { hash: 'sha1', secrets: credentials.authTokens };
  const hash = HASHES.get((algorithmOf(settings) ?? 'HMAC_SHA1').toUpperCase());
  if (hash === undefined) return 'malformed';
  // A SharedKey signed it and we hold none. An Auth Token cannot have made that signature, so
  // none is tried in its place: the header alone never changes which secrets count.
  if (credentials.sharedKeys.length === 0) return 'mismatch';
  return { hash, secrets: credentials.sharedKeys };
}

function algorithmOf(settings: string): string | null {
  for (const part of settings.split(',')) {
    const separator = part.indexOf('=');
    if (separator !== -1 && part.slice(0, separator).trim().toLowerCase() === 'algorithm') {
      const algorithm = part.slice(separator + 1).trim();
      if (algorithm) return algorithm;
    }
  }
  return null;
}

/**
 * Names sorted by UTF-16 code unit (Array#sort, as twilio-node does); each name is written
 * once per value, a repeated name's values deduplicated and sorted as twilio-node does.
 */
function serializeParams(params: Readonly<Record<string, string | readonly string[]>>): string {
  return Object.keys(params)
    .sort()
    .map((name) => {
      const value = params[name] ?? '';
      const values = typeof value === 'string' ? [value] : [...new Set(value)].sort();
      return values.map((item) => name + item).join('');
    })
    .join('');
}

/**
 * The URL as given, and with the scheme's standard port added (when it has none) or removed
 * (when it has exactly that one): Twilio's back end signs some requests with the port and some
 * without. A non-standard port is never dropped (twilio-node drops any port), so a signature
 * made for one port is not accepted on another. The rest of the URL is kept byte for byte.
 */
function urlForms(url: string): string[] {
  const match = AUTHORITY.exec(url);
  if (match === null) return [url];
  const [, scheme = '', authority = '', rest = ''] = match;
  const standard = DEFAULT_PORTS.get(scheme.toLowerCase());
  if (standard === undefined) return [url];
  const hostStart = authority.lastIndexOf('@') + 1;
  // A colon starts the port only after the closing bracket of an IPv6 literal.
  const portStart = authority.indexOf(':', Math.max(hostStart, authority.lastIndexOf(']') + 1));
  if (portStart === -1) return [url, scheme + authority + standard + rest];
  if (authority.slice(portStart) === standard) return [url, scheme + authority.slice(0, portStart) + rest];
  return [url];
}
