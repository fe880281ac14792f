import { listeningOn } from './listen-address.js';

describe('listeningOn', () => {
  it('names the port first, then the interface the server bound to', () => {
    expect(listeningOn({ address: '::', family: 'IPv6', port: 3000 }, undefined)).toBe('port 3000 on every interface');
    expect(listeningOn({ address: '127.0.0.1', family: 'IPv4', port: 3000 }, '127.0.0.1')).toBe('port 3000 on 127.0.0.1');
    expect(listeningOn({ address: '::1', family: 'IPv6', port: 8080 }, 'localhost')).toBe('port 8080 on localhost (::1)');
    expect(listeningOn('/run/app.sock', undefined)).toBe('/run/app.sock');
  });
});
