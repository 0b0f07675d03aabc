import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { SanctionsService, type SanctionsMatch } from '../gen/complyd/v1/sanctions_pb';
import { useSession } from '../auth/session';
import { Empty, ErrorText, Field, Loading } from '../ui/parts';

// Sanctions searches a name against the lists and shows each candidate with its score and the
// matcher's explanation. Given a customer key (account or BVN), a hit can be marked a reviewed
// false positive for that customer, so later screenings of them skip it.
export function Sanctions() {
  const { canAct } = useSession();
  const [name, setName] = useState('');
  const [subjectKey, setSubjectKey] = useState('');
  const [asked, setAsked] = useState<{ name: string; subjectKey: string } | null>(null);
  const q = useQuery(SanctionsService.method.search, asked ? { name: asked.name, subjectKey: asked.subjectKey || undefined, limit: 20 } : undefined, { enabled: !!asked });
  return (
    <section aria-labelledby="sx-h">
      <h1 id="sx-h">Sanctions search</h1>
      <form className="filters" onSubmit={(e) => { e.preventDefault(); setAsked({ name, subjectKey }); }}>
        <Field label="Name to search"><input required value={name} onChange={(e) => setName(e.target.value)} /></Field>
        <Field label="Customer key (account or BVN)"><input value={subjectKey} onChange={(e) => setSubjectKey(e.target.value)} /></Field>
        <button type="submit">Search</button>
      </form>
      {!asked ? <Empty>Enter a name to search the lists.</Empty> : q.isPending ? <Loading /> : q.isError ? <ErrorText error={q.error} /> : q.data.matches.length === 0 ? <Empty>No candidates above the threshold.</Empty> : (
        <table aria-label="Candidates">
          <thead><tr><th>Listed name</th><th>Matched name</th><th>List</th><th>Score</th><th>Band</th><th>Explanation</th>{canAct && asked.subjectKey && <th>Review</th>}</tr></thead>
          <tbody>{q.data.matches.map((m) => (
            <tr key={m.list + m.entryId}><td>{m.name}</td><td>{m.matchedName}</td><td>{m.list} {m.sourceId}</td><td>{m.score.toFixed(2)}</td><td>{m.band}</td><td>{m.explanation}</td>
              {canAct && asked.subjectKey && <td><FalsePositive m={m} subjectKey={asked.subjectKey} onDone={() => void q.refetch()} /></td>}
            </tr>))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function FalsePositive({ m, subjectKey, onDone }: { m: SanctionsMatch; subjectKey: string; onDone: () => void }) {
  const [reason, setReason] = useState('');
  const mark = useMutation(SanctionsService.method.createFalsePositive, { onSuccess: onDone });
  if (mark.isSuccess) return <span>Reviewed: false positive</span>;
  return (
    <form onSubmit={(e) => { e.preventDefault(); mark.mutate({ subjectKey, entryId: m.entryId, reason }); }}>
      <Field label={`Reason for ${m.name}`}><input required value={reason} onChange={(e) => setReason(e.target.value)} /></Field>
      <button type="submit">Mark {m.name} as false positive</button>
      <ErrorText error={mark.error} />
    </form>
  );
}
