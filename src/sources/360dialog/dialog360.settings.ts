import { Transform } from 'class-transformer';
import { Matches, MinLength } from 'class-validator';
import { eachItem, HEADER_NAME, toList } from '../../config/config-transforms.js';
import { Feature, Setting } from '../../config/settings/setting.js';

@Feature('Source: 360dialog', '360dialog, as a partner platform or with a custom header on the webhook URL. Every secret takes a comma-separated list: during a rotation the old and the new value are both accepted. With no credential set, the source takes webhook requests unauthenticated, which production refuses unless `WEBHOOK_ALLOW_UNSIGNED` names it.')
export class Dialog360Settings {
  @Setting('360dialog partner platform secret(s); set: webhook requests must carry a valid `x-360dialog-signature`')
  @Transform(toList)
  @MinLength(8, eachItem('DIALOG360_PLATFORM_SECRET must be at least 8 characters'))
  DIALOG360_PLATFORM_SECRET: string[] = [];

  @Setting('value(s) of the custom header set on the 360dialog webhook URL (e.g. `Authorization: <secret>`); set: webhook requests must carry one')
  @Transform(toList)
  @MinLength(16, eachItem('DIALOG360_HEADER_SECRET must be at least 16 characters'))
  DIALOG360_HEADER_SECRET: string[] = [];

  @Setting('the custom header `DIALOG360_HEADER_SECRET` arrives in')
  @Matches(HEADER_NAME, { message: 'DIALOG360_HEADER_NAME must be an HTTP header name' })
  DIALOG360_HEADER_NAME = 'authorization';
}
