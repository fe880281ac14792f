import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, IsUrl, Min, MinLength } from 'class-validator';
import { eachItem, emptyToUndefined, toInt, toList } from '../config/config-transforms.js';
import { keyBytes, MIN_KEY_BYTES, WHSEC_PATTERN } from '../config/whsec.js';
import { Feature, Setting, type SettingsOf } from '../config/settings/setting.js';
import { WorkerSettings } from '../queue/worker.settings.js';

const HTTP_URL = { protocols: ['http', 'https'], require_tld: false, require_protocol: true };

@Feature('Built-in steps', 'The `forward` step (every event POSTed to one URL) and the `auto-reply` example step.')
export class StepsSettings {
  @Setting('where the `forward` step POSTs each event; unset: no forward step')
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl(HTTP_URL, { message: 'FORWARD_URL must be an http(s):// URL' })
  FORWARD_URL?: string;

  /** `whsec_<base64>` secrets sign with their decoded bytes, others with their UTF-8. */
  @Setting(
    'signs forwards: Standard Webhooks `webhook-signature` (one per value) and `X-Signature-256` (first value); `whsec_<base64>` or a plain secret of 8+ characters',
  )
  @Transform(toList)
  @MinLength(8, eachItem('FORWARD_SECRET must be at least 8 characters'))
  FORWARD_SECRET: string[] = [];

  @Setting('timeout of each outbound call of the built-in steps (and the default of each destination), in milliseconds; must be below `ATTEMPT_TIMEOUT_SECONDS`')
  @Transform(toInt)
  @IsInt({ message: 'FORWARD_TIMEOUT_MS must be an integer' })
  @Min(1)
  FORWARD_TIMEOUT_MS = 10_000;

  @Setting('turns on the `auto-reply` example step: every inbound Meta message gets this text back (needs `WHATSAPP_ACCESS_TOKEN`)')
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  AUTO_REPLY_TEXT?: string;

  @Setting('Cloud API access token used by `auto-reply`')
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  WHATSAPP_ACCESS_TOKEN?: string;

  @Setting('Cloud API base URL')
  @IsUrl(HTTP_URL, { message: 'WHATSAPP_GRAPH_URL must be an http(s):// URL' })
  WHATSAPP_GRAPH_URL = 'https://graph.facebook.com/v23.0';

  static check(settings: StepsSettings, of: SettingsOf): string[] {
    const errors: string[] = [];
    if (settings.AUTO_REPLY_TEXT && !settings.WHATSAPP_ACCESS_TOKEN) errors.push('AUTO_REPLY_TEXT needs WHATSAPP_ACCESS_TOKEN');
    for (const secret of settings.FORWARD_SECRET) {
      if (!secret.startsWith('whsec_')) continue;
      if (!WHSEC_PATTERN.test(secret)) errors.push('FORWARD_SECRET: a whsec_ secret must be whsec_ followed by base64');
      else if (keyBytes(secret) < MIN_KEY_BYTES) errors.push(`FORWARD_SECRET: a whsec_ secret must hold at least ${MIN_KEY_BYTES} bytes`);
    }
    // An attempt is aborted at its timeout; a forward must be able to time out (and say why) first.
    const attemptMs = of(WorkerSettings).ATTEMPT_TIMEOUT_SECONDS * 1000;
    if (settings.FORWARD_TIMEOUT_MS >= attemptMs) errors.push(`FORWARD_TIMEOUT_MS must be below ATTEMPT_TIMEOUT_SECONDS (${attemptMs} ms)`);
    return errors;
  }
}
