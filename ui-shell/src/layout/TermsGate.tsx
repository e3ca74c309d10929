import { lazy, Suspense, type ReactNode } from 'react';
import { useAccess } from '@atende/ui-shell/sdk';
import { AppSkeleton } from './AppSkeleton.tsx';

// Seen once per install at most: its code stays out of every other load.
const TermsScreen = lazy(() => import('../screens/terms/TermsScreen.tsx'));

/**
 * Every logged-in screen goes through here: while the install's terms of use
 * are not accepted (`/api/me/access` → `tenant.termsAccepted`, the same rule
 * the server enforces with ERR_TERMS_NOT_ACCEPTED), the terms screen takes
 * the place of the layout and its screen, so nothing else calls the API.
 */
export function TermsGate({ children }: { children: ReactNode }) {
  const access = useAccess();
  if (access && !access.tenant.termsAccepted) {
    return (
      <Suspense fallback={<AppSkeleton />}>
        <TermsScreen access={access} />
      </Suspense>
    );
  }
  return children;
}
