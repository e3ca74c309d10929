/**
 * Standalone dev page (`npx vite` in this folder): the screen inside the same
 * providers the shell gives it. The API must be reachable on the same origin
 * (e.g. a proxy); in the product the shell mounts this remote instead.
 */
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { Provider as JotaiProvider } from 'jotai';
import { createRoot } from 'react-dom/client';
import { initReactI18next } from 'react-i18next';
import { atendeStore, queryClient, registerPluginLocales } from '@atende/ui-shell/sdk';
import plugin from './index.tsx';
import UserStatsReport from './UserStatsReport.tsx';

await i18next.use(initReactI18next).init({ lng: 'pt', fallbackLng: 'en', fallbackNS: 'translation', resources: {}, interpolation: { escapeValue: false } });
registerPluginLocales(plugin);

createRoot(document.getElementById('root')!).render(
  <JotaiProvider store={atendeStore}>
    <QueryClientProvider client={queryClient}>
      <MantineProvider>
        <Notifications position="top-center" />
        <div style={{ padding: 24 }}>
          <UserStatsReport />
        </div>
      </MantineProvider>
    </QueryClientProvider>
  </JotaiProvider>,
);
