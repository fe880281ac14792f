import { IsIn } from 'class-validator';
import { Feature, Setting } from '../config/settings/setting.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

@Feature('Logging', 'JSON lines on stdout (one coloured line per entry at a terminal outside production).')
export class LoggingSettings {
  @Setting('the least severe level logged; successful webhook requests log at `debug`')
  @IsIn(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: LogLevel = 'info';
}
