import { Transform } from 'class-transformer';
import { IsBoolean } from 'class-validator';
import { toBoolean } from '../config/config-transforms.js';
import { Feature, Setting } from '../config/settings/setting.js';

@Feature('Operator console', 'The web console served by the HTTP service (its API is the operator API).')
export class ConsoleSettings {
  @Setting('serve the operator console (the built files in `dist/console`) at `/console/`; `false` answers `404` there (the API stays)')
  @Transform(toBoolean)
  @IsBoolean({ message: 'CONSOLE_ENABLED must be true or false' })
  CONSOLE_ENABLED = true;
}
