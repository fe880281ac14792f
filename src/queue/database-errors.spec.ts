import { isUniqueViolation, sqlState } from './database-errors.js';

const prismaRawError = (originalCode: string) => ({
  code: 'P2010',
  meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { originalCode, kind: 'postgres' } } },
});

describe('database errors', () => {
  it('finds the SQLSTATE inside a Prisma raw-query error and a pg error', () => {
    expect(sqlState(prismaRawError('22P05'))).toBe('22P05');
    expect(sqlState({ severity: 'ERROR', code: '40P01' })).toBe('40P01');
    expect(sqlState(new Error('wrapped', { cause: { severity: 'ERROR', code: '23505' } }))).toBe('23505');
  });

  it('has no SQLSTATE when the server never answered', () => {
    expect(sqlState({ code: 'P2010', meta: { driverAdapterError: { cause: { kind: 'DatabaseNotReachable' } } } })).toBeUndefined();
    expect(sqlState({ code: 'ECONNREFUSED' })).toBeUndefined();
    expect(sqlState({ code: 'P2002' })).toBeUndefined();
    expect(sqlState(null)).toBeUndefined();
  });

  it('recognizes a unique violation however it surfaced', () => {
    expect(isUniqueViolation({ code: 'P2002' })).toBe(true);
    expect(isUniqueViolation(prismaRawError('23505'))).toBe(true);
    expect(isUniqueViolation({ severity: 'ERROR', code: '23505' })).toBe(true);
    expect(isUniqueViolation(prismaRawError('23503'))).toBe(false);
    expect(isUniqueViolation(new Error('23505'))).toBe(false);
  });
});
