import { useEffect, useState } from 'preact/hooks';
import { authStore } from './auth/auth-store';
import { LoginForm } from './auth/login-form';
import { Layout } from './components/layout';
import { DeadLettersPage } from './pages/dead-letters/dead-letters-page';
import { ReceiptsPage } from './pages/receipts/receipts-page';
import { EventDetailPage } from './pages/event-detail/event-detail-page';
import { EventsPage } from './pages/events/events-page';
import { DestinationsPage } from './pages/overview/destinations-page';
import { OverviewPage } from './pages/overview/overview-page';
import { useRoute, type Route } from './router';

const TITLES: Record<Route['page'], string> = {
  overview: 'Overview',
  events: 'Events',
  event: 'Event',
  dead: 'Dead letters',
  receipts: 'Receipts',
  destinations: 'Destinations',
};

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'overview':
      return <OverviewPage params={route.params} />;
    case 'events':
      return <EventsPage params={route.params} />;
    case 'event':
      return <EventDetailPage id={route.id} />;
    case 'dead':
      return <DeadLettersPage params={route.params} />;
    case 'receipts':
      return <ReceiptsPage params={route.params} />;
    case 'destinations':
      return <DestinationsPage />;
  }
}

/** The console: asks for the key when the API wants one, else the page of the hash route. */
export function App() {
  const route = useRoute();
  const [prompt, setPrompt] = useState(authStore.prompt);
  useEffect(() => authStore.subscribe(() => setPrompt(authStore.prompt())), []);
  useEffect(() => {
    document.title = `${TITLES[route.page]} · operator console`;
  }, [route.page]);
  if (prompt !== null) return <LoginForm prompt={prompt} />;
  return (
    <Layout current={route.page}>
      <Page route={route} key={route.page === 'event' ? `event:${route.id}` : route.page} />
    </Layout>
  );
}
