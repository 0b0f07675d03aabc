import { useState } from 'react';
import { useQuery } from '@connectrpc/connect-query';
import { CustomerService } from '../gen/complyd/v1/customer_pb';
import { Link } from '../ui/router';
import { Empty, ErrorText, Field, Loading, Pager, when } from '../ui/parts';

const ratings = ['LOW', 'MEDIUM', 'HIGH'];

// Customers lists saved customer profiles with their risk rating: search by name, BVN, NIN or
// RC number, filter by rating, or show only the customers whose periodic review is due.
export function Customers() {
  const [q, setQ] = useState('');
  const [rating, setRating] = useState('');
  const [due, setDue] = useState(false);
  const [page, setPage] = useState(1);
  const search = useQuery(CustomerService.method.searchCustomers, { q: q.trim() || undefined, rating: rating || undefined, page, limit: 20 }, { enabled: !due });
  const dueQ = useQuery(CustomerService.method.listDueReviews, { page, limit: 20 }, { enabled: due });
  const res = due ? dueQ : search;
  const reset = (f: () => void) => { f(); setPage(1); };
  return (
    <section aria-labelledby="cust-h">
      <h1 id="cust-h">Customers</h1>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <Field label="Search customers"><input value={q} disabled={due} onChange={(e) => reset(() => setQ(e.target.value))} placeholder="name, BVN, NIN or RC number" /></Field>
        <Field label="Risk rating"><select value={rating} disabled={due} onChange={(e) => reset(() => setRating(e.target.value))}><option value="">any</option>{ratings.map((r) => <option key={r} value={r}>{r}</option>)}</select></Field>
        <label className="field"><span>Reviews due only</span><input type="checkbox" checked={due} onChange={(e) => reset(() => setDue(e.target.checked))} /></label>
      </form>
      {res.isPending ? <Loading /> : res.isError ? <ErrorText error={res.error} /> : res.data.items.length === 0 ? <Empty>No customers match.</Empty> : (
        <table aria-label="Customers">
          <thead><tr><th>Name</th><th>Type</th><th>Risk rating</th><th>Score</th><th>Next review</th><th>Updated</th></tr></thead>
          <tbody>{res.data.items.map((c) => (
            <tr key={c.id}>
              <td><Link to={`/customers/${c.id}`}>{c.name}</Link></td><td>{c.type.toLowerCase()}</td>
              <td className={c.rating ? `risk-${c.rating}` : ''}>{c.rating || 'not rated yet'}</td><td>{c.rating ? c.score : '—'}</td>
              <td>{when(c.nextReviewAt)}</td><td>{when(c.updatedAt)}</td>
            </tr>))}
          </tbody>
        </table>
      )}
      {res.data && <Pager page={res.data.page} totalPages={res.data.totalPages} total={res.data.total} onPage={setPage} />}
    </section>
  );
}
