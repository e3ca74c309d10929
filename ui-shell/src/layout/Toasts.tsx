import { Notifications } from '@mantine/notifications';

/** The toast container, a lazy chunk of its own (see `ThemedProviders` in App.tsx). */
export default function Toasts() {
  return <Notifications position="top-center" limit={4} zIndex={4000} />;
}
