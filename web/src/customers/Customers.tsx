import { useState } from 'react';
import { useQuery } from '@connectrpc/connect-query';
import { Checkbox, Group, NativeSelect, TextInput, Title } from '@mantine/core';
import { CustomerService, type CustomerListItem } from '../gen/complyd/v1/customer_pb';
import { Link, useRouter } from '../ui/router';
import { ErrorText, Pager } from '../ui/parts';
import { DataTable, type Col } from '../ui/DataTable';
import { StatusBadge } from '../ui/StatusBadge';
import { dateTime, enumLabel } from '../ui/format';
import { useZone } from '../ui/zone';

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
  const zone = useZone();
  const { navigate } = useRouter();
  const cols: Col<CustomerListItem>[] = [
    { id: 'name', header: 'Name', cell: (c) => <Link to={`/customers/${c.id}`}>{c.name}</Link>, sort: (c) => c.name },
    { id: 'type', header: 'Type', cell: (c) => enumLabel(c.type), sort: (c) => c.type },
    { id: 'rating', header: 'Risk rating', cell: (c) => (c.rating ? <StatusBadge value={c.rating} /> : 'not rated yet'), sort: (c) => c.rating },
    { id: 'score', header: 'Score', cell: (c) => (c.rating ? c.score : '—'), sort: (c) => c.score },
    { id: 'review', header: 'Next review', cell: (c) => dateTime(c.nextReviewAt, zone) },
    { id: 'updated', header: 'Updated', cell: (c) => dateTime(c.updatedAt, zone) },
  ];
  return (
    <section aria-labelledby="cust-h">
      <Title order={1} id="cust-h" mb="sm">Customers</Title>
      <form onSubmit={(e) => e.preventDefault()}>
        <Group gap="sm" align="end" wrap="wrap" mb="sm">
          <TextInput label="Search customers" value={q} disabled={due} onChange={(e) => reset(() => setQ(e.currentTarget.value))} placeholder="name, BVN, NIN or RC number" />
          <NativeSelect label="Risk rating" value={rating} disabled={due} onChange={(e) => reset(() => setRating(e.currentTarget.value))}
            data={[{ value: '', label: 'Any' }, ...ratings.map((r) => ({ value: r, label: enumLabel(r) }))]} />
          <Checkbox label="Reviews due only" checked={due} onChange={(e) => reset(() => setDue(e.currentTarget.checked))} mb={8} />
        </Group>
      </form>
      {res.isError ? <ErrorText error={res.error} /> : (
        <DataTable label="Customers" rows={res.data?.items} cols={cols} rowKey={(c) => c.id} loading={res.isPending}
          empty="No customers match." onOpen={(c) => navigate(`/customers/${c.id}`)} />
      )}
      {res.data && <Pager page={res.data.page} totalPages={res.data.totalPages} total={res.data.total} onPage={setPage} />}
    </section>
  );
}
