import type { PaymentMessage as Message } from '../gen/complyd/v1/screening_pb';
import { Title } from '@mantine/core';
import { enumLabel as label, money } from '../ui/format';
import { DataTable, type Col } from '../ui/DataTable';
import { Facts } from '../ui/Facts';
import { StatusBadge } from '../ui/StatusBadge';

type Party = Message['parties'][number];
const cols: Col<Party>[] = [
  { id: 'role', header: 'Role', rowHeader: true, cell: (p) => label(p.role), sort: (p) => p.role },
  { id: 'name', header: 'Name', cell: (p) => p.name || '—', sort: (p) => p.name },
  { id: 'bic', header: 'BIC / LEI', cell: (p) => [p.bic, p.lei].filter(Boolean).join(' / ') || '—' },
  { id: 'account', header: 'Account', cell: (p) => p.account || '—' },
  { id: 'country', header: 'Country', cell: (p) => p.country || '—', sort: (p) => p.country },
  { id: 'address', header: 'Address', cell: (p) => p.address.join('; ') || '—', hidden: true },
  { id: 'ids', header: 'Identifiers', cell: (p) => p.identifiers.map((i) => `${i.scheme ? i.scheme + ' ' : ''}${i.id}`).join(', ') || '—' },
  { id: 'hit', header: 'Screening', cell: (p) => (p.hit ? <StatusBadge value="SANCTIONS_HIT" label="List hit" /> : 'No hit'), sort: (p) => Number(p.hit) },
];

// PaymentMessage shows the ISO 20022 message a transaction was screened from: its identifiers,
// purpose and remittance, and every party and agent as the message named them, with the ones a
// list entry matched marked (docs/guide/iso20022.md).
export function PaymentMessage({ m }: { m: Message }) {
  return (
    <>
      <Title order={2} size="h3" id="pm-h">Payment message</Title>
      <Facts label="Payment message" items={[
        ['Message', `${m.messageType} ${m.messageId}`],
        ['End-to-end id', m.endToEndId],
        ...(m.txId ? [['Transaction id', m.txId] as [string, string]] : []),
        ...(m.uetr ? [['UETR', m.uetr] as [string, string]] : []),
        ['Amount as sent', money(m.amount, m.currency)],
        ['Purpose', m.purpose || '—'],
        ['Remittance', m.remittance.length ? m.remittance.join('; ') : '—'],
      ]} />
      <DataTable label="Parties and agents" rows={m.parties} cols={cols} rowKey={(p) => p.path || p.role} />
    </>
  );
}
