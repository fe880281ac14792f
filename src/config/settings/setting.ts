/**
 * What a settings class tells its reader beyond validation: a class-validator decorator says
 * what is accepted, `@Setting` says what the variable is for, in the words the generated
 * reference (docs/configuration.md) prints. Only variables declared with `@Setting` are read
 * from the environment, so none is validated without being documented.
 */
export interface SettingDoc {
  /** What the variable does, for an operator (Markdown). */
  description: string;
  /** The default as a sentence, where the initializer alone does not say it (e.g. `unset: every interface`). */
  default?: string;
}

export interface FeatureDoc {
  /** The heading of the feature's table in the reference. */
  title: string;
  /** A paragraph under the heading. */
  summary: string;
}

/**
 * A feature's settings. Its instance fields are the variables; its statics are the checks that
 * span fields, run once every class's fields are valid: `check` returns messages naming the
 * variables, `complete` fills in defaults that depend on other fields. `of` hands another
 * feature's validated settings to a check that depends on them.
 */
export interface SettingsClass<T extends object = object> {
  new (): T;
  check?(settings: T, of: SettingsOf): string[];
  complete?(settings: T): void;
}

export type SettingsOf = <S extends object>(settings: SettingsClass<S>) => S;

const features = new Map<SettingsClass, FeatureDoc>();
const settings = new Map<SettingsClass, Map<string, SettingDoc>>();

/** Class decorator: the feature these settings belong to, as the reference shows it. */
export function Feature(title: string, summary: string) {
  return (target: SettingsClass): void => {
    features.set(target, { title, summary });
  };
}

/** Property decorator: this field is the environment variable of the same name. */
export function Setting(description: string, options: Omit<SettingDoc, 'description'> = {}) {
  return (prototype: object, property: string): void => {
    const target = prototype.constructor as SettingsClass;
    if (!settings.has(target)) settings.set(target, new Map());
    settings.get(target)!.set(property, { description, ...options });
  };
}

export function featureOf(target: SettingsClass): FeatureDoc {
  const feature = features.get(target);
  if (!feature) throw new Error(`${target.name} has no @Feature: every settings class names its feature`);
  return feature;
}

/** The variables a settings class reads, in declaration order, with their docs. */
export function settingsOf(target: SettingsClass): ReadonlyMap<string, SettingDoc> {
  return settings.get(target) ?? new Map();
}
