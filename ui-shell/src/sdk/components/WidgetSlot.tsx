import { useAtomValue } from 'jotai';
import { Fragment } from 'react';
import { uiPluginsAtom, type WidgetZone, type WidgetZoneProps } from '../plugin.ts';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { ErrorBox } from './ErrorBox.tsx';

/** Mounts every loaded remote's widget for `zone`; one failing widget never takes the zone down. */
export function WidgetSlot<Z extends WidgetZone>({ zone, ...props }: { zone: Z } & WidgetZoneProps[Z]) {
  const { plugins } = useAtomValue(uiPluginsAtom);
  return (
    <>
      {plugins.map((p) => {
        const Widget = p.widgets?.[zone] as React.ComponentType<WidgetZoneProps[Z]> | undefined;
        if (!Widget) return null;
        return (
          <Fragment key={p.id}>
            <ErrorBoundary fallback={(error, reset) => <ErrorBox compact error={error} onRetry={reset} />}>
              <Widget {...(props as unknown as WidgetZoneProps[Z])} />
            </ErrorBoundary>
          </Fragment>
        );
      })}
    </>
  );
}
