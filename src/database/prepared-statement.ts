import type { Compilable, CompiledQuery, Kysely, RawBuilder } from 'kysely';
import { compileOnly } from './compile-only.js';
import type { DB } from './tables.js';

/** Stands in for a named parameter while the statement is built. */
class Slot {
  constructor(readonly name: string) {}
}

/**
 * A statement whose text is the same on every call (its lists travel as array parameters),
 * built and compiled once: a call only binds its parameters, so the hot path (the claim, per
 * webhook request) pays no query building. `build` receives named stand-ins; a value it uses
 * as a parameter must be one of them or a constant. Run it with `db.run(s.bind(p))`.
 * It may be a builder's query or a `sql` template (its text kept as written, `$n` numbered in order).
 */
export class PreparedStatement<P extends object, R> {
  private readonly compiled: CompiledQuery<R>;
  private readonly slots: Array<{ name: string } | { value: unknown }>;

  constructor(build: (db: Kysely<DB>, params: P) => Compilable<R> | RawBuilder<R>) {
    const params = new Proxy({}, { get: (_, name) => new Slot(String(name)) }) as P;
    const db = compileOnly();
    const built = build(db, params);
    this.compiled = 'isRawBuilder' in built ? built.compile(db) : built.compile();
    this.slots = this.compiled.parameters.map((p) => (p instanceof Slot ? { name: p.name } : { value: p }));
  }

  bind(params: P): CompiledQuery<R> {
    return { ...this.compiled, parameters: this.slots.map((s) => ('name' in s ? params[s.name as keyof P] : s.value)) };
  }
}
