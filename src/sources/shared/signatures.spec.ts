import { safeEqual } from '../../common/safe-equal.js';
import { checkSharedSecret } from './signatures.js';

describe('checkSharedSecret', () => {
  it('compares against every configured secret exactly', () => {
    expect(checkSharedSecret('s3cret-value', ['s3cret-value'])).toBeNull();
    expect(checkSharedSecret('s3cret-value', ['n3w-secret-value', 's3cret-value'])).toBeNull();
    expect(checkSharedSecret('s3cret-valu', ['s3cret-value'])).toBe('mismatch');
    expect(checkSharedSecret(undefined, ['s3cret-value'])).toBe('missing');
    expect(safeEqual('', '')).toBe(true);
  });
});
