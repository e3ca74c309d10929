import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './styles.css';
// First, before React and the app: starts the first screen's requests (see the module).
import './first-data.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { initI18n } from './i18n/index.ts';

// The first paint needs the user's catalogue; Portuguese is bundled, any other is one small request.
await initI18n();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
