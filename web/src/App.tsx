import { useSession } from './auth/session';
import { Link, useRouter } from './ui/router';
import { Queue } from './cases/Queue';
import { CasePage } from './cases/CasePage';
import { Transactions, TransactionPage } from './transactions/Transactions';
import { Sanctions } from './sanctions/Sanctions';
import { KycList, KycPage } from './kyc/Kyc';
import { KybList, KybPage } from './kyc/Kyb';
import { ApiReference } from './api/ApiReference';
import { Reports } from './reports/Reports';
import { ReportPage } from './reports/ReportPage';

// App lays out the workspace: navigation, the signed-in officer, and the screen for the path.
export function App() {
  const { me, signOut } = useSession();
  const { loc } = useRouter();
  const m = loc.path.match(/^\/cases\/([^/]+)$/);
  let screen;
  if (loc.path === '/' || loc.path === '/cases') screen = <Queue />;
  else if (m) screen = <CasePage key={m[1]} id={decodeURIComponent(m[1])} />;
  else if (loc.path === '/transactions') screen = <Transactions />;
  else if (loc.path.startsWith('/transactions/')) screen = <TransactionPage id={decodeURIComponent(loc.path.slice(14))} />;
  else if (loc.path === '/sanctions') screen = <Sanctions />;
  else if (loc.path === '/api') screen = <ApiReference />;
  else if (loc.path === '/reports') screen = <Reports />;
  else if (loc.path.startsWith('/reports/')) screen = <ReportPage key={loc.path} id={decodeURIComponent(loc.path.slice(9))} />;
  else if (loc.path === '/kyc') screen = <KycList />;
  else if (loc.path === '/kyb') screen = <KybList />;
  else if (loc.path.startsWith('/kyb/')) screen = <KybPage id={decodeURIComponent(loc.path.slice(5))} />;
  else if (loc.path.startsWith('/kyc/')) screen = <KycPage id={decodeURIComponent(loc.path.slice(5))} />;
  else screen = <section><h1>Page not found</h1><Link to="/">Back to my queue</Link></section>;
  return (
    <>
      <header>
        <nav aria-label="Main">
          <Link to="/">My queue</Link>
          <Link to="/transactions">Transactions</Link>
          <Link to="/kyc">KYC review</Link>
          <Link to="/kyb">KYB review</Link>
          <Link to="/sanctions">Sanctions</Link>
          <Link to="/reports">Reports</Link>
          <Link to="/api">API</Link>
        </nav>
        <span className="who">{me.firstName} {me.lastName} ({me.role.toLowerCase()}) — {me.tenant?.name}</span>
        <button type="button" onClick={() => void signOut()}>Sign out</button>
      </header>
      <main>{screen}</main>
    </>
  );
}
