import { Transform } from 'class-transformer';
import { IsInt, IsOptional, isFQDN, isIP, Max, Min, ValidateBy } from 'class-validator';
import { emptyToUndefined, toInt } from '../config/config-transforms.js';
import { Feature, Setting } from '../config/settings/setting.js';

@Feature('HTTP server', 'Where the service listens and how long a client may take to send a request.')
export class HttpSettings {
  @Setting('HTTP port')
  @Transform(toInt)
  @IsInt({ message: 'PORT must be an integer' })
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @Setting(
    'the address the HTTP server, and the standalone worker\'s metrics server, listen on: an IP address (`127.0.0.1` behind a proxy on the same host, `::1`, `0.0.0.0`) or a host name, without a port; the start log says where it listens',
    { default: 'unset: every interface' },
  )
  @Transform(emptyToUndefined)
  @IsOptional()
  @ValidateBy(
    { name: 'isListenAddress', validator: { validate: (value) => typeof value === 'string' && (isIP(value) || isFQDN(value, { require_tld: false })) } },
    { message: 'HOST must be an IP address (e.g. 127.0.0.1, ::1, 0.0.0.0) or a host name, without a port' },
  )
  HOST?: string;

  /** Node's server.requestTimeout: a stalled or trickled upload is cut then. */
  @Setting(
    'longest a client may take to send a whole request, headers and body, in milliseconds; then `408` and the connection is closed (a stalled upload is cut within 26 s by default)',
  )
  @Transform(toInt)
  @IsInt({ message: 'HTTP_REQUEST_TIMEOUT_MS must be an integer (milliseconds)' })
  @Min(1000, { message: 'HTTP_REQUEST_TIMEOUT_MS must be at least 1000' })
  @Max(600_000, { message: 'HTTP_REQUEST_TIMEOUT_MS must be at most 600000 (10 minutes)' })
  HTTP_REQUEST_TIMEOUT_MS = 25_000;

  /** Node's server.headersTimeout. */
  @Setting('longest a client may take to send a request\'s headers, in milliseconds; at most `HTTP_REQUEST_TIMEOUT_MS`')
  @Transform(toInt)
  @IsInt({ message: 'HTTP_HEADERS_TIMEOUT_MS must be an integer (milliseconds)' })
  @Min(1000, { message: 'HTTP_HEADERS_TIMEOUT_MS must be at least 1000' })
  HTTP_HEADERS_TIMEOUT_MS = 10_000;

  static check(settings: HttpSettings): string[] {
    // The headers are part of the request: a longer headers timeout would never apply.
    return settings.HTTP_HEADERS_TIMEOUT_MS > settings.HTTP_REQUEST_TIMEOUT_MS
      ? ['HTTP_HEADERS_TIMEOUT_MS must not be above HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request)']
      : [];
  }
}
