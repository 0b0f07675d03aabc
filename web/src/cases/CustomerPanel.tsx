import { Badge, Card, Group, List, Text, Title } from '@mantine/core';
import type { LinkedCase, LinkedReport, WorkspaceCustomer } from '../gen/complyd/v1/case_workspace_pb';
import { dateTime, enumLabel, plural } from '../ui/format';
import { Link } from '../ui/router';
import { StatusBadge } from '../ui/StatusBadge';


// CustomerPanel is who the case is about: the rating, the KYC/KYB applications and their
// status, the accounts, with links to the profile and its network.
export function CustomerPanel({ customer }: { customer?: WorkspaceCustomer }) {
  if (!customer) {
    return <Card withBorder padding="sm" component="section" aria-label="Customer"><Text>No customer known for this case.</Text></Card>;
  }
  const c = customer;
  return (
    <Card withBorder padding="sm" component="section" aria-labelledby="cust-h">
      <Group justify="space-between" wrap="wrap">
        <Title order={2} id="cust-h" size="h3">Customer {c.displayName}</Title>
        {c.riskRating ? <StatusBadge value={c.riskRating} label={`${enumLabel(c.riskRating)} risk`} /> : <StatusBadge label="not rated" />}
      </Group>
      <Text size="sm">{enumLabel(c.kind)} · {plural(c.openCases, 'open case')}</Text>
      <Title order={3} size="h5" mt="xs">Applications</Title>
      {c.applications.length === 0 ? <Text size="sm">No KYC or KYB application.</Text> : (
        <List size="sm">{c.applications.map((a) => (
          <List.Item key={a.id}><Link to={a.kind === 'KYB' ? `/kyb/${a.id}` : `/kyc/${a.id}`}>{a.kind} {enumLabel(a.status)}{a.tier && `, ${enumLabel(a.tier)}`}</Link></List.Item>))}
        </List>
      )}
      <Title order={3} size="h5" mt="xs">Accounts</Title>
      {c.accounts.length === 0 ? <Text size="sm">No account seen.</Text> : (
        <List size="sm">{c.accounts.slice(0, 5).map((a) => (
          <List.Item key={a.accountNumber}>{a.accountNumber}: {plural(Number(a.transactions), 'transaction')}, last {dateTime(a.lastSeenAt)}</List.Item>))}
        </List>
      )}
      <Group gap="md" mt="xs">
        <Link to={`/customers/${c.id}`}>Customer {c.displayName}</Link>
        <Link to={`/customers/${c.id}#net-h`}>Network of {c.displayName}</Link>
      </Group>
    </Card>
  );
}

// Linked lists the party's other cases and the reports of the case or its party.
export function Linked({ cases, reports }: { cases: LinkedCase[]; reports: LinkedReport[] }) {
  return (
    <Card withBorder padding="sm" component="section" aria-labelledby="linked-h">
      <Title order={2} id="linked-h" size="h3">Linked cases and reports</Title>
      {cases.length === 0 && reports.length === 0 && <Text size="sm">None.</Text>}
      <List size="sm">
        {cases.map((k) => <List.Item key={k.id}><Link to={`/cases/${k.id}`}>{k.caseNumber}</Link> {k.title} ({enumLabel(k.status)})</List.Item>)}
        {reports.map((r) => <List.Item key={r.id}><Link to={`/reports/${r.id}`}>{r.type} report</Link> ({enumLabel(r.status)})</List.Item>)}
      </List>
    </Card>
  );
}
