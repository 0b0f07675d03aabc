import { useQuery } from '@connectrpc/connect-query';
import { Group, Text } from '@mantine/core';
import { TransactionService } from '../gen/complyd/v1/screening_pb';
import { Link } from '../ui/router';
import { dateTime, money, plural } from '../ui/format';
import { useZone } from '../ui/zone';

// named is how many of a report's transactions are named by what an officer recognises: a CTR
// can cover a day's hundreds, and each name is one GetTransaction call.
const named = 10;

// ReportTransactions links the transactions a report covers, each by the bank's reference,
// amount and time (read from TransactionService; the report itself holds only their ids), and
// says how many more there are beyond the first ten.
export function ReportTransactions({ ids }: { ids: string[] }) {
  if (ids.length === 0) return <>none</>;
  const rest = ids.length - named;
  return (
    <Group gap="xs">
      {ids.slice(0, named).map((id, i) => <ReportTransaction key={id} id={id} n={i + 1} />)}
      {rest > 0 && <Text size="sm">and {plural(rest, 'other transaction')}</Text>}
    </Group>
  );
}

// ReportTransaction is one link; until its transaction is read, or when it cannot be, it is
// named by its number.
function ReportTransaction({ id, n }: { id: string; n: number }) {
  const zone = useZone();
  const q = useQuery(TransactionService.method.getTransaction, { id }, { retry: false });
  const t = q.data;
  const name = t ? `${t.externalId}, ${money(t.amount, t.currency)}, ${dateTime(t.transactionTimestamp ?? t.createdAt, zone)}` : `Transaction ${n}`;
  return <Link to={`/transactions/${id}`}>{name}</Link>;
}
