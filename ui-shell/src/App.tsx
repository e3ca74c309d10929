import { MantineProvider, localStorageColorSchemeManager } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { Provider as JotaiProvider, useAtomValue } from 'jotai';
import { lazy, Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router-dom';
import { atendeStore, loginEpochAtom, primaryColorAtom, queryClient } from '@atende/ui-shell/sdk';
import { BusyIndicator } from './layout/BusyIndicator.tsx';
import { createAppRouter } from './router.tsx';
import {
  useCurrentUserRefresh,
  useInactivityReload,
  usePluginPreload,
  useRealtimeConnection,
  useSystemColors,
  useUserColorScheme,
  useVersionCheck,
} from './shell/hooks.ts';
import { useAttentionIndicators, useTicketAlerts } from './shell/attention.ts';
import { accessibleColors, buildTheme } from './theme.ts';

const colorSchemeManager = localStorageColorSchemeManager({ key: 'atende-color-scheme' });

const LazyToasts = lazy(() => import('./layout/Toasts.tsx'));

/**
 * The toast container (~7 KB gzip with its transitions) is fetched when the
 * first toast is raised, not before the first screen: toasts wait in Mantine's
 * store until the container mounts and shows them.
 */
function Toasts() {
  const { notifications, queue } = useNotifications();
  const [wanted, setWanted] = useState(false);
  if (!wanted && notifications.length + queue.length > 0) setWanted(true);
  return wanted ? <Suspense fallback={null}><LazyToasts /></Suspense> : null;
}

function ThemedProviders({ children }: { children: ReactNode }) {
  const primary = useAtomValue(primaryColorAtom);
  const { t, i18n } = useTranslation();
  const close = t('common.close');
  const theme = useMemo(() => buildTheme(primary, { close }), [primary, close, i18n.language]);
  return (
    <MantineProvider theme={theme} colorSchemeManager={colorSchemeManager} defaultColorScheme="light" cssVariablesResolver={accessibleColors}>
      <Toasts />
      {children}
    </MantineProvider>
  );
}

/** Behaviours that live as long as the page. */
function PageEffects() {
  useSystemColors();
  useVersionCheck();
  useInactivityReload();
  useCurrentUserRefresh();
  useRealtimeConnection();
  useUserColorScheme();
  usePluginPreload();
  useAttentionIndicators();
  useTicketAlerts();
  return null;
}

function AppRouter() {
  // A new router per login: lazily resolved routes (which plugin provides
  // which screen) belong to the user who was logged in when they resolved.
  const epoch = useAtomValue(loginEpochAtom);
  const router = useMemo(() => createAppRouter(), [epoch]);
  // The old router must stop listening to hash changes, or it keeps running loaders.
  useEffect(() => () => router.dispose(), [router]);
  return <RouterProvider router={router} useTransitions={false} />;
}

/** The shell: providers, page-wide behaviours and the router. */
export function App() {
  return (
    <JotaiProvider store={atendeStore}>
      <QueryClientProvider client={queryClient}>
        <ThemedProviders>
          <PageEffects />
          <BusyIndicator />
          <AppRouter />
        </ThemedProviders>
      </QueryClientProvider>
    </JotaiProvider>
  );
}
