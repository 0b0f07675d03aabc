import { lazy, Suspense } from 'react';
import { useSession } from './auth/session';
import { Loading } from './ui/parts';
import { Link, useRouter } from './ui/router';
import { Shell } from './ui/Shell';
import { Queue } from './cases/Queue';
import { CasePage } from './cases/CasePage';
import { Transactions, TransactionPage } from './transactions/Transactions';
import { Sanctions } from './sanctions/Sanctions';
import { Watchlists } from './watchlists/Watchlists';
import { KycList, KycPage } from './kyc/Kyc';
import { KybList, KybPage } from './kyc/Kyb';
import { adminScreen } from './admin/routes';
import { Customers } from './customers/Customers';
import { CustomerPage } from './customers/CustomerPage';
import { AuditLog } from './audit/AuditLog';
import { Reports } from './reports/Reports';
import { ReportPage } from './reports/ReportPage';
import { Interdictions } from './interdictions/Interdictions';

// The heavy screens load on first visit: the Overview brings the charts (recharts), the API
// reference Swagger UI (docs/guide/dashboard.md "First load").
const Overview = lazy(() => import('./overview/Overview').then((m) => ({ default: m.Overview })));
const ApiReference = lazy(() => import('./api/ApiReference').then((m) => ({ default: m.ApiReference })));

// App lays out the workspace: navigation, the signed-in officer, and the screen for the path.
export function App() {
  const { me } = useSession();
  const { loc } = useRouter();
  const m = loc.path.match(/^\/cases\/([^/]+)$/);
  const admin = adminScreen(loc.path, me.role);
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
  else if (admin) screen = admin;
  else screen = <section><h1>Page not found</h1><Link to="/">Back to my queue</Link></section>;
  return <Shell><Suspense fallback={<Loading />}>{screen}</Suspense></Shell>;
}
