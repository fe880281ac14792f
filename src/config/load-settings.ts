import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync, type ValidationError } from 'class-validator';
import { settingsOf, type SettingsClass } from './settings/setting.js';

/**
 * Every feature's settings, validated together from one environment. A wrong value stops the
 * start with one message listing every problem, each naming its variable: first each field on
 * its own, then (only once all fields are valid) the checks that span fields.
 */
export class LoadedSettings {
  constructor(private readonly byClass: ReadonlyMap<SettingsClass, object>) {}

  get<T extends object>(settings: SettingsClass<T>): T {
    const found = this.byClass.get(settings);
    if (!found) throw new Error(`${settings.name} is not registered (src/settings.ts)`);
    return found as T;
  }

  all(): object[] {
    return [...this.byClass.values()];
  }
}

export function loadSettings(env: Record<string, unknown>, classes: readonly SettingsClass[]): LoadedSettings {
  const byClass = new Map<SettingsClass, object>();
  const problems: string[] = [];
  for (const settings of classes) {
    assertDocumented(settings);
    const instance = plainToInstance(settings, ownVariables(env, settings), { exposeDefaultValues: true });
    problems.push(...validateSync(instance, { skipMissingProperties: false, forbidUnknownValues: false }).flatMap(messages));
    byClass.set(settings, instance);
  }
  fail(problems);
  const loaded = new LoadedSettings(byClass);
  const of = <S extends object>(settings: SettingsClass<S>) => loaded.get(settings);
  fail(classes.flatMap((settings) => settings.check?.(loaded.get(settings), of) ?? []));
  for (const settings of classes) settings.complete?.(loaded.get(settings));
  return loaded;
}

/** Only the class's own variables: an instance holds its settings, not the whole environment. */
function ownVariables(env: Record<string, unknown>, settings: SettingsClass): Record<string, unknown> {
  return Object.fromEntries([...settingsOf(settings).keys()].filter((name) => name in env).map((name) => [name, env[name]]));
}

/** A validated field without `@Setting` would never be read from the environment (nor documented). */
function assertDocumented(settings: SettingsClass): void {
  const documented = settingsOf(settings);
  const validated = getMetadataStorage().getTargetValidationMetadatas(settings, '', true, false).map((m) => m.propertyName);
  const missing = [...new Set(validated)].filter((name) => !documented.has(name));
  if (missing.length > 0) throw new Error(`${settings.name}: ${missing.join(', ')} validated but not declared with @Setting`);
}

function messages(error: ValidationError): string[] {
  return Object.values(error.constraints ?? { invalid: `${error.property} is invalid` }).map((message) =>
    message.startsWith(error.property) ? message : `${error.property}: ${message}`,
  );
}

function fail(problems: string[]): void {
  if (problems.length > 0) throw new Error(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
}
