import { Box } from '@mantine/core';
import { Outlet } from 'react-router-dom';
import { RealtimeBanner } from './RealtimeBanner.tsx';
import { TermsGate } from './TermsGate.tsx';

/** Logged-in screens outside the main layout (ticket screen, private chat, reports): full window. */
export function StandaloneLayout() {
  return (
    <TermsGate>
      <Box mih="100vh">
        <RealtimeBanner />
        <Outlet />
      </Box>
    </TermsGate>
  );
}
