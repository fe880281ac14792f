import { useEffect, useState } from 'preact/hooks';

/** Hash routes (#/events/<id>), so the server needs no fallback for deep links. */
export type Route =
  | { page: 'overview'; params: URLSearchParams }
  | { page: 'events'; params: URLSearchParams }
  | { page: 'event'; id: string; params: URLSearchParams }
  | { page: 'dead'; params: URLSearchParams }
  | { page: 'receipts'; params: URLSearchParams }
  | { page: 'destinations'; params: URLSearchParams };

/** Pages renamed since operators bookmarked them: #/deliveries was the receipts page. */
const RENAMED = new Map([['deliveries', 'receipts']]);

/** The hash with a renamed page's old path replaced by its new one, else the hash itself. */
export function canonicalHash(hash: string): string {
  const [, page = '', rest = ''] = /^#?\/([^/?]*)(.*)$/s.exec(hash) ?? [];
  const to = RENAMED.get(page);
  return to === undefined ? hash : `#/${to}${rest}`;
}

export function parseHash(hash: string): Route {
  const [path = '', query = ''] = canonicalHash(hash).replace(/^#/, '').split('?', 2);
  const params = new URLSearchParams(query);
  const [, first = '', second] = path.split('/');
  if (first === 'events' && second) return { page: 'event', id: safeDecode(second), params };
  if (first === 'events' || first === 'dead' || first === 'receipts' || first === 'destinations') return { page: first, params };
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

/** Shows an old bookmark's new address without a history entry of its own. */
function rewriteRenamed(): void {
  const canonical = canonicalHash(location.hash);
  if (canonical !== location.hash) history.replaceState(history.state, '', canonical);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(location.hash));
  useEffect(() => {
    const update = () => {
      rewriteRenamed();
      setRoute(parseHash(location.hash));
    };
    rewriteRenamed();
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return route;
}
