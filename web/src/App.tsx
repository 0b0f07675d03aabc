import { lazy, Suspense } from 'react';
import { useSession } from './auth/session';
import { Loading } from './ui/parts';
import { Link, useRouter } from './ui/router';
import { Shell } from './ui/Shell';

// Every screen is its own chunk, loaded on its first visit (docs/guide/dashboard.md "First
// load"): the queue does not carry the KYC review, the charts (the Overview and the case page's
// activity) or Swagger UI (the API reference). Screens of one module share its chunk.
const Queue = lazy(() => import('./cases/Queue').then((m) => ({ default: m.Queue })));
const CasePage = lazy(() => import('./cases/CasePage').then((m) => ({ default: m.CasePage })));
const Transactions = lazy(() => import('./transactions/Transactions').then((m) => ({ default: m.Transactions })));
const TransactionPage = lazy(() => import('./transactions/Transactions').then((m) => ({ default: m.TransactionPage })));
const Sanctions = lazy(() => import('./sanctions/Sanctions').then((m) => ({ default: m.Sanctions })));
const Watchlists = lazy(() => import('./watchlists/Watchlists').then((m) => ({ default: m.Watchlists })));
const KycList = lazy(() => import('./kyc/Kyc').then((m) => ({ default: m.KycList })));
const KycPage = lazy(() => import('./kyc/Kyc').then((m) => ({ default: m.KycPage })));
const KybList = lazy(() => import('./kyc/Kyb').then((m) => ({ default: m.KybList })));
const KybPage = lazy(() => import('./kyc/Kyb').then((m) => ({ default: m.KybPage })));
const Customers = lazy(() => import('./customers/Customers').then((m) => ({ default: m.Customers })));
const CustomerPage = lazy(() => import('./customers/CustomerPage').then((m) => ({ default: m.CustomerPage })));
const AuditLog = lazy(() => import('./audit/AuditLog').then((m) => ({ default: m.AuditLog })));
const Reports = lazy(() => import('./reports/Reports').then((m) => ({ default: m.Reports })));
const ReportPage = lazy(() => import('./reports/ReportPage').then((m) => ({ default: m.ReportPage })));
const Interdictions = lazy(() => import('./interdictions/Interdictions').then((m) => ({ default: m.Interdictions })));
// The Overview brings the charts (recharts) and their styles, the API reference Swagger UI.
const Overview = lazy(() => Promise.all([import('./overview/Overview'), import('@mantine/charts/styles.css')])
  .then(([m]) => ({ default: m.Overview })));
const ApiReference = lazy(() => import('./api/ApiReference').then((m) => ({ default: m.ApiReference })));
// The administration screens and "My account" (admin/routes.tsx decides the screen and the role).
const Admin = lazy(() => import('./admin/routes').then((m) => ({
  default: ({ path, role }: { path: string; role: string }) => <>{m.adminScreen(path, role) ?? <NotFound />}</>,
})));

function NotFound() {
  return <section><h1>Page not found</h1><Link to="/">Back to my queue</Link></section>;
}

// App lays out the workspace: navigation, the signed-in officer, and the screen for the path.
export function App() {
  const { me } = useSession();
  const { loc } = useRouter();
  const m = loc.path.match(/^\/cases\/([^/]+)$/);
  let screen;
  if (loc.path === '/' || loc.path === '/cases') screen = <Queue />;
  else if (m) screen = <CasePage key={m[1]} id={decodeURIComponent(m[1])} />;
  else if (loc.path === '/transactions') screen = <Transactions />;
  else if (loc.path.startsWith('/transactions/')) screen = <TransactionPage id={decodeURIComponent(loc.path.slice(14))} />;
  else if (loc.path === '/sanctions') screen = <Sanctions />;
  else if (loc.path === '/watchlists') screen = <Watchlists />;
  else if (loc.path === '/api') screen = <ApiReference />;
  else if (loc.path === '/customers') screen = <Customers />;
  else if (loc.path.startsWith('/customers/')) screen = <CustomerPage key={loc.path} id={decodeURIComponent(loc.path.slice(11))} />;
  else if (loc.path === '/overview') screen = <Overview />;
  else if (loc.path === '/audit') screen = <AuditLog />;
  else if (loc.path === '/reports') screen = <Reports />;
  else if (loc.path.startsWith('/reports/')) screen = <ReportPage key={loc.path} id={decodeURIComponent(loc.path.slice(9))} />;
  else if (loc.path === '/interdictions') screen = <Interdictions />;
  else if (loc.path === '/kyc') screen = <KycList />;
  else if (loc.path === '/kyb') screen = <KybList />;
  else if (loc.path.startsWith('/kyb/')) screen = <KybPage id={decodeURIComponent(loc.path.slice(5))} />;
  else if (loc.path.startsWith('/kyc/')) screen = <KycPage id={decodeURIComponent(loc.path.slice(5))} />;
  else if (loc.path === '/account' || loc.path.startsWith('/admin/')) screen = <Admin path={loc.path} role={me.role} />;
  else screen = <NotFound />;
  return <Shell><Suspense fallback={<Loading />}>{screen}</Suspense></Shell>;
}
