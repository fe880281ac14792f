import type { ComponentChildren } from 'preact';
import { authStore } from '../auth/auth-store';
import type { Route } from '../router';

const LINKS: Array<{ page: Route['page']; href: string; label: string }> = [
  { page: 'overview', href: '#/overview', label: 'Overview' },
  { page: 'events', href: '#/events', label: 'Events' },
  { page: 'dead', href: '#/dead', label: 'Dead letters' },
  { page: 'receipts', href: '#/receipts', label: 'Receipts' },
  { page: 'destinations', href: '#/destinations', label: 'Destinations' },
];

export function Layout({ current, children }: { current: Route['page']; children: ComponentChildren }) {
  const active = current === 'event' ? 'events' : current;
  return (
    <>
      <a class="skip" href="#main" onClick={(e) => { e.preventDefault(); document.getElementById('main')?.focus(); }}>
        Skip to content
      </a>
      <header class="top">
        <span class="brand">wdd console</span>
        <nav aria-label="Pages">
          <ul>
            {LINKS.map((link) => (
              <li key={link.page}>
                <a href={link.href} aria-current={link.page === active ? 'page' : undefined}>
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        {authStore.key() !== null && (
          <button type="button" class="link" onClick={() => authStore.forget()}>
            Forget key
          </button>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
