/**
 * Standalone dev page (`npx vite` in this folder): the channel form and the
 * connect panel inside the same providers the shell gives them. The API must
 * be reachable on the same origin (e.g. a proxy); in the product the
 * /sessoes screen mounts them in its channel dialog and connect dialog.
 * `?channel=<id>&status=<status>&qrcode=<text>&pairingCode=<code>` shows a
 * panel in that state.
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
import BaileysConnect from './BaileysConnect.tsx';
import BaileysForm from './BaileysForm.tsx';

const qs = new URLSearchParams(window.location.search);
await i18next.use(initReactI18next).init({ lng: qs.get('lng') ?? 'pt', fallbackLng: 'en', fallbackNS: 'translation', resources: {}, interpolation: { escapeValue: false } });
registerPluginLocales(plugin);

function Dev() {
  const [value, setValue] = useState<ChannelFormValue>({ number: null, config: { connectionMethod: 'qrcode' }, secrets: {} });
  return (
    <SimpleGrid cols={2} p="lg">
      <Paper withBorder p="md">
        <Title order={4} mb="md">Formulário</Title>
        <BaileysForm value={value} onChange={setValue} />
      </Paper>
      <Paper withBorder p="md">
        <Title order={4} mb="md">Conexão</Title>
        <BaileysConnect
          channel={{
            id: Number(qs.get('channel')) || 1,
            type: 'baileys',
            name: 'WhatsApp',
            number: qs.get('number'),
            status: qs.get('status') ?? 'qrcode',
            qrcode: qs.get('qrcode'),
            pairingCode: qs.get('pairingCode'),
            retries: Number(qs.get('retries')) || 0,
            lastError: qs.get('lastError'),
          }}
        />
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
