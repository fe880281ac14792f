import { planMigration, UnsupportedMigrationError } from './migration-plan.js';

const plan = (sql: string) => planMigration({ name: '20990101000000_test', sql, checksum: 'x' });

describe('planMigration', () => {
  it('runs an ordinary migration in one transaction, retryable', () => {
    expect(plan('ALTER TABLE messages ADD COLUMN x int;\nCREATE INDEX i ON messages (x);')).toEqual({ mode: 'transaction', retryable: true });
  });

  it('runs a lone CREATE INDEX CONCURRENTLY outside a transaction and knows its index', () => {
    expect(plan('-- CreateIndex\nCREATE INDEX CONCURRENTLY "messages_type_idx" ON "messages"("type");\n')).toEqual({
      mode: 'concurrently',
      retryable: true,
      buildsIndex: 'messages_type_idx',
    });
    expect(plan('create unique index concurrently if not exists Msg_Idx on messages (type)').buildsIndex).toBe('msg_idx');
    expect(plan('CREATE INDEX CONCURRENTLY "Mixed""Case" ON messages (type) WHERE status = \'received\'').buildsIndex).toBe('Mixed"Case');
  });

  it('runs a lone DROP INDEX CONCURRENTLY outside a transaction', () => {
    expect(plan('DROP INDEX CONCURRENTLY IF EXISTS "messages_type_idx";')).toEqual({ mode: 'concurrently', retryable: true });
  });

  it('refuses CONCURRENTLY mixed with other statements, and an unnamed concurrent index', () => {
    expect(() => plan('CREATE INDEX CONCURRENTLY a ON messages (type);\nCREATE INDEX CONCURRENTLY b ON messages (sender);')).toThrow(
      /must be the only statement/,
    );
    expect(() => plan('SET lock_timeout = 1000;\nCREATE INDEX CONCURRENTLY a ON messages (type);')).toThrow(UnsupportedMigrationError);
    expect(() => plan('CREATE INDEX CONCURRENTLY ON messages (type);')).toThrow(/name the index/);
  });

  it('does not take the word in a literal or comment for the keyword', () => {
    expect(plan(`-- build it concurrently later\nCOMMENT ON TABLE messages IS 'indexes are built concurrently'; SELECT 1;`).mode).toBe('transaction');
  });

  it('does not retry a script that controls its own transactions: a COMMIT in it may have kept a part', () => {
    expect(plan('BEGIN;\nALTER TABLE messages ADD COLUMN x int;\nCOMMIT;\nALTER TABLE messages ADD COLUMN y int;').retryable).toBe(false);
    expect(plan('ALTER TABLE messages ADD COLUMN x int; -- commit later').retryable).toBe(true);
  });
});
