import { useEffect, useState } from 'preact/hooks';

/** Hash routes (#/events/<id>), so the server needs no fallback for deep links. */
export type Route =
  | { page: 'overview'; params: URLSearchParams }
  | { page: 'events'; params: URLSearchParams }
  | { page: 'event'; id: string; params: URLSearchParams }
  | { page: 'dead'; params: URLSearchParams }
  | { page: 'deliveries'; params: URLSearchParams }
  | { page: 'destinations'; params: URLSearchParams };

export function parseHash(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#/, '').split('?', 2);
  const params = new URLSearchParams(query);
  const [, first = '', second] = path.split('/');
  if (first === 'events' && second) return { page: 'event', id: safeDecode(second), params };
  if (first === 'events' || first === 'dead' || first === 'deliveries' || first === 'destinations') return { page: first, params };
  return { page: 'overview', params };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** `#/path?params`, leaving out empty values. */
export function href(path: string, params: Record<string, string | undefined> = {}): string {
  const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''));
  const text = query.toString();
  return `#${path}${text ? `?${text}` : ''}`;
}

export const eventHref = (id: string) => `#/events/${encodeURIComponent(id)}`;

export function navigate(target: string): void {
  if (location.hash !== target) location.hash = target;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(location.hash));
  useEffect(() => {
    const update = () => setRoute(parseHash(location.hash));
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return route;
}
