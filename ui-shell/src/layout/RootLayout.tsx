import { Outlet, useNavigation } from 'react-router-dom';

/** Root of every route: a thin progress bar while a navigation loads code or data. */
export function RootLayout() {
  const navigation = useNavigation();
  return (
    <>
      {navigation.state !== 'idle' && <div className="atende-progress" role="progressbar" aria-busy />}
      <Outlet />
    </>
  );
}
