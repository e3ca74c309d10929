/** Standalone dev page (`npx vite` in this folder): the panel for contact 1, with the API on the same origin. */
import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { createRoot } from 'react-dom/client';
import { initReactI18next } from 'react-i18next';
import { queryClient, registerPluginLocales } from '@atende/ui-shell/sdk';
import plugin from './index.tsx';
import { ContactItems } from './ContactItems.tsx';

await i18next.use(initReactI18next).init({ lng: 'pt', fallbackLng: 'en', fallbackNS: 'translation', resources: {}, interpolation: { escapeValue: false } });
registerPluginLocales(plugin);

createRoot(document.getElementById('root')!).render(
  <QueryClientProvider client={queryClient}>
    <MantineProvider>
      <div style={{ padding: 24, maxWidth: 360 }}>
        <ContactItems contactId={1} />
      </div>
    </MantineProvider>
  </QueryClientProvider>,
);
