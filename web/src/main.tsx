import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { TransportProvider } from '@connectrpc/connect-query';
import { transport } from './transport';
import { Router } from './ui/router';
import { SessionGate } from './auth/session';
import { App } from './App';
import { MantineProvider } from '@mantine/core';
import { theme } from './ui/theme';
import '@mantine/core/styles.css';
import '@mantine/charts/styles.css';
import './ui/style.css';

const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme}>
    <TransportProvider transport={transport}>
      <QueryClientProvider client={queryClient}>
        <Router>
          <SessionGate>
            <App />
          </SessionGate>
        </Router>
      </QueryClientProvider>
    </TransportProvider>
    </MantineProvider>
  </StrictMode>,
);
