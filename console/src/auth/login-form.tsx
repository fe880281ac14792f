import { useState } from 'preact/hooks';
import { authStore, type Prompt } from './auth-store';

/** Asks for INSPECTION_API_KEY; kept in sessionStorage until the browser session ends. */
export function LoginForm({ prompt }: { prompt: Exclude<Prompt, null> }) {
  const [key, setKey] = useState('');
  const submit = (event: Event) => {
    event.preventDefault();
    if (key.trim() !== '') authStore.submit(key.trim());
  };
  return (
    <main id="main" class="login">
      <h1>Operator console</h1>
      <form onSubmit={submit} class="card">
        <h2>Sign in</h2>
        {prompt === 'wrong' ? (
          <p role="alert" class="error">
            Wrong key: the API refused it (401). Enter the service's INSPECTION_API_KEY.
          </p>
        ) : (
          <p>This service's operator API needs its key (INSPECTION_API_KEY). It is kept for this browser session only.</p>
        )}
        <label for="api-key">Inspection API key</label>
        <input id="api-key" name="api-key" type="password" autoComplete="current-password" required value={key}
          onInput={(e) => setKey(e.currentTarget.value)} autoFocus />
        <button type="submit">Sign in</button>
      </form>
    </main>
  );
}
