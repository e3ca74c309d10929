import { Suspense, useEffect, useState, type ReactNode } from 'react';

function AfterMount({ onMount, children }: { onMount: () => void; children: ReactNode }) {
  useEffect(onMount, []);
  return children;
}

/**
 * A dialog or drawer whose code (a `lazy()` component) is fetched the first
 * time it opens, not with the screen (docs/performance.md U1). From then on it stays
 * mounted, as it always was; it mounts closed and opens right after, so its
 * opening transition plays as it did when it was mounted with the screen.
 */
export function OnFirstOpen({ opened, children }: { opened: boolean; children: (opened: boolean) => ReactNode }) {
  const [wanted, setWanted] = useState(opened);
  const [mounted, setMounted] = useState(false);
  if (opened && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <AfterMount onMount={() => setMounted(true)}>{children(mounted && opened)}</AfterMount>
    </Suspense>
  );
}
