import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { accessQuery, getSession, queryClient } from '@atende/ui-shell/sdk';
import { App } from './App.tsx';
import { initI18n } from './i18n/index.ts';
import { prefetchPath, PUBLIC_ROUTES } from './routes.tsx';

// Logged in and not on a public page: every route guard first asks for the
// access map, and the first screen for its data; ask now, before the first
// render and before the screen's chunks fill the browser's connections (the
// guard and the screen find the queries in flight).
const hashPath = window.location.hash.replace(/^#/, '').split('?')[0] ?? '';
if (getSession() && !PUBLIC_ROUTES.some((r) => hashPath.startsWith(r.path.split('/:')[0]!))) {
  void queryClient.prefetchQuery(accessQuery);
  prefetchPath(hashPath);
}

// The first paint needs the user's catalogue; Portuguese is bundled, any other is one small request.
await initI18n();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
