/**
 * Standalone dev page (`npx vite` in this folder): the channel form and the
 * connect panel inside the same providers the shell gives them. The API must
 * be reachable on the same origin (e.g. a proxy); in the product the /sessoes
 * screen mounts them in its channel dialog and connect dialog.
 */
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider, Paper, SimpleGrid, Title } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { Provider as JotaiProvider } from 'jotai';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { initReactI18next } from 'react-i18next';
import { atendeStore, queryClient, registerPluginLocales, type ChannelFormValue } from '@atende/ui-shell/sdk';
import plugin from './index.tsx';
import WabaConnect from './WabaConnect.tsx';
import WabaForm from './WabaForm.tsx';

await i18next.use(initReactI18next).init({ lng: 'pt', fallbackLng: 'en', fallbackNS: 'translation', resources: {}, interpolation: { escapeValue: false } });
registerPluginLocales(plugin);

/** The channel to show: `?channel=<id>` of an existing WABA channel, else a new one. */
const channelId = Number(new URLSearchParams(window.location.search).get('channel')) || 0;

function Dev() {
  const [value, setValue] = useState<ChannelFormValue>({ number: null, config: {}, secrets: {} });
  return (
    <SimpleGrid cols={2} p="lg">
      <Paper withBorder p="md">
        <Title order={4} mb="md">Formulário</Title>
        <WabaForm value={value} onChange={setValue} />
      </Paper>
      <Paper withBorder p="md">
        <Title order={4} mb="md">Conexão</Title>
        {channelId > 0 && <WabaConnect channel={{ id: channelId, type: 'waba', name: 'WhatsApp oficial', number: null, status: 'connected', qrcode: null, pairingCode: null, retries: 0, lastError: null }} />}
      </Paper>
    </SimpleGrid>
  );
}

createRoot(document.getElementById('root')!).render(
  <JotaiProvider store={atendeStore}>
    <QueryClientProvider client={queryClient}>
      <MantineProvider>
        <Notifications position="top-center" />
        <Dev />
      </MantineProvider>
    </QueryClientProvider>
  </JotaiProvider>,
);
