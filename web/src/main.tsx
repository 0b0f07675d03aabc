import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { TransportProvider } from '@connectrpc/connect-query';
import { transport } from './transport';
import { Router } from './ui/router';
import { SessionGate } from './auth/session';
import { MantineProvider } from '@mantine/core';
import { theme } from './ui/theme';
import { Loading } from './ui/parts';
import '@mantine/core/styles.css';
import './ui/style.css';

// The workspace (shell and screens) loads once signed in: the sign-in page carries only React,
// Mantine, Connect and the session (docs/guide/dashboard.md "First load").
// The queue's chunk is fetched beside the workspace's when the queue is the screen asked for, not
// after it (one round trip fewer before the first row).
const App = lazy(() => {
  if (window.location.pathname === '/' || window.location.pathname === '/cases') void import('./cases/Queue');
  return import('./App').then((m) => ({ default: m.App }));
});

const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme}>
    <TransportProvider transport={transport}>
      <QueryClientProvider client={queryClient}>
        <Router>
          <SessionGate>
            <Suspense fallback={<Loading />}><App /></Suspense>
          </SessionGate>
        </Router>
      </QueryClientProvider>
    </TransportProvider>
    </MantineProvider>
  </StrictMode>,
);
