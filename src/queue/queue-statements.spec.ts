import { sql, type RawBuilder } from 'kysely';
import { compileOnly } from '../database/compile-only.js';
import type { PreparedStatement } from '../database/prepared-statement.js';
import { QueueStatements } from './queue-statements.js';

const text = (statement: PreparedStatement<never, unknown> | RawBuilder<unknown>) =>
  'bind' in statement ? statement.bind({} as never).sql : statement.compile(compileOnly()).sql;
const oneLine = (statement: PreparedStatement<never, unknown> | RawBuilder<unknown>) => text(statement).replace(/\s+/g, ' ').trim();
const placeholders = (statement: PreparedStatement<never, unknown> | RawBuilder<unknown>) => [...new Set(text(statement).match(/\$\d+/g))].sort();

describe('QueueStatements', () => {
  const deliveries = new QueueStatements({ name: 'destination_jobs', alias: 'j', keys: ['message_id', 'destination'] });
  const inbox = new QueueStatements({ name: 'messages', alias: 'm', keys: ['message_id'] });

  it('finds the leases still held by key and token, locked in key order, for a key of any width', () => {
    expect(oneLine(deliveries.renew)).toContain(
      'SELECT j.message_id, j.destination FROM unnest($1::text[], $2::text[], $3::uuid[]) AS r(message_id, destination, token) '
      + 'JOIN destination_jobs j ON j.message_id = r.message_id AND j.destination = r.destination AND j.lease_token = r.token '
      + 'ORDER BY j.message_id, j.destination FOR UPDATE OF j',
    );
    expect(oneLine(inbox.release)).toContain('FROM unnest($1::text[], $2::uuid[]) AS r(message_id, token) JOIN messages m ON m.message_id = r.message_id AND m.lease_token = r.token');
  });

  it('numbers its parameters after the keys and tokens', () => {
    expect(placeholders(deliveries.renew)).toEqual(['$1', '$2', '$3', '$4']);
    expect(placeholders(deliveries.release)).toEqual(['$1', '$2', '$3']);
    expect(placeholders(inbox.renew)).toEqual(['$1', '$2', '$3']);
  });

  it('leases after the caller’s own parameters, from its `due` rows', () => {
    // The caller's statement has two parameters of its own before the lease.
    const statement = sql`SELECT ${1}, ${2} ${inbox.leaseUpdate('worker-1', 30, { returning: 'm.message_id' })}`;
    expect(placeholders(statement)).toEqual(['$1', '$2', '$3', '$4']);
    const update = oneLine(statement);
    expect(update).toContain("leased_by = CASE WHEN due.exhausted THEN NULL ELSE $3::text END, due_at = now() + $4::int * interval '1 second' FROM due WHERE m.message_id = due.message_id RETURNING m.message_id");
    expect(oneLine(deliveries.leaseUpdate('worker-1', 30, { from: 'due, messages m', where: ' AND m.message_id = j.message_id', returning: '*' })))
      .toContain('FROM due, messages m WHERE j.message_id = due.message_id AND j.destination = due.destination AND m.message_id = j.message_id RETURNING *');
  });
});
