import type { PaymentMessage as Message } from '../gen/complyd/v1/screening_pb';
import { enumLabel as label } from '../ui/format';

// PaymentMessage shows the ISO 20022 message a transaction was screened from: its identifiers,
// purpose and remittance, and every party and agent as the message named them, with the ones a
// list entry matched marked (docs/guide/iso20022.md).
export function PaymentMessage({ m }: { m: Message }) {
  return (
    <>
      <h2 id="pm-h">Payment message</h2>
      <dl className="facts" aria-labelledby="pm-h">
        <dt>Message</dt><dd>{m.messageType} {m.messageId}</dd>
        <dt>End-to-end id</dt><dd>{m.endToEndId}</dd>
        {m.txId && <><dt>Transaction id</dt><dd>{m.txId}</dd></>}
        {m.uetr && <><dt>UETR</dt><dd>{m.uetr}</dd></>}
        <dt>Amount as sent</dt><dd>{m.amount} {m.currency}</dd>
        <dt>Purpose</dt><dd>{m.purpose || '—'}</dd>
        <dt>Remittance</dt><dd>{m.remittance.length ? m.remittance.join('; ') : '—'}</dd>
      </dl>
      <table aria-label="Parties and agents">
        <thead><tr><th>Role</th><th>Name</th><th>BIC / LEI</th><th>Account</th><th>Country</th><th>Address</th><th>Identifiers</th><th>Screening</th></tr></thead>
        <tbody>{m.parties.map((p) => (
          <tr key={p.path || p.role} className={p.hit ? 'hit' : undefined}>
            <td>{label(p.role)}</td><td>{p.name || '—'}</td><td>{[p.bic, p.lei].filter(Boolean).join(' / ') || '—'}</td>
            <td>{p.account || '—'}</td><td>{p.country || '—'}</td><td>{p.address.join('; ') || '—'}</td>
            <td>{p.identifiers.map((i) => `${i.scheme ? i.scheme + ' ' : ''}${i.id}`).join(', ') || '—'}</td>
            <td>{p.hit ? <strong>List hit</strong> : 'no hit'}</td>
          </tr>))}
        </tbody>
      </table>
    </>
  );
}
