import { useQuery } from '@connectrpc/connect-query';
import { Code, ConnectError } from '@connectrpc/connect';
import { CustomerService } from '../gen/complyd/v1/customer_pb';
import { Link } from './router';
import { ErrorText } from './parts';

// CustomerLinks names the customer a case, a transaction or an application is about and links
// to its profile and its network (the network is a section of the customer page). The API finds
// the customer (CustomerService.FindCustomer); when none is known (an empty id) it says so.
export function CustomerLinks({ caseId, transactionId, applicationId }: { caseId?: string; transactionId?: string; applicationId?: string }) {
  const q = useQuery(CustomerService.method.findCustomer, { caseId: caseId ?? '', transactionId: transactionId ?? '', applicationId: applicationId ?? '' }, { retry: false });
  if (q.isPending) return null;
  if (q.isError) {
    if (q.error instanceof ConnectError && q.error.code === Code.NotFound) return <p className="muted">No customer known for it.</p>;
    return <ErrorText error={q.error} />;
  }
  const c = q.data;
  if (c.id === '') return <p className="muted">No customer known for it.</p>;
  return (
    <nav aria-label="Customer" className="actions">
      <span>Customer: </span>
      <Link to={`/customers/${c.id}`}>Customer {c.displayName}</Link>
      {' · '}
      <Link to={`/customers/${c.id}#net-h`}>Network of {c.displayName}</Link>
    </nav>
  );
}
