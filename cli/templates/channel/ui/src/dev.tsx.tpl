/** Standalone dev page (`npx vite` in this folder): the provider form with its value printed below. */
import '@mantine/core/styles.css';
import { Code, MantineProvider, Stack } from '@mantine/core';
import i18next from 'i18next';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { initReactI18next } from 'react-i18next';
import { registerPluginLocales, type ChannelFormValue } from '@atende/ui-shell/sdk';
import plugin from './index.tsx';
import { ProviderForm } from './ProviderForm.tsx';

await i18next.use(initReactI18next).init({ lng: 'pt', fallbackLng: 'en', fallbackNS: 'translation', resources: {}, interpolation: { escapeValue: false } });
registerPluginLocales(plugin);

function Dev() {
  const [value, setValue] = useState<ChannelFormValue>({ number: null, config: {}, secrets: {} });
  return (
    <Stack p="xl" maw={720}>
      <ProviderForm value={value} onChange={setValue} />
      <Code block>{JSON.stringify(value, null, 2)}</Code>
    </Stack>
  );
}

createRoot(document.getElementById('root')!).render(
  <MantineProvider>
    <Dev />
  </MantineProvider>,
);
