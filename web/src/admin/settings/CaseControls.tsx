import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { CaseService } from '../../gen/complyd/v1/case_pb';
import { ErrorText, Loading } from '../../ui/parts';

// CaseControls is the institution's four-eyes rule for case resolutions: when on, every
// resolution is a proposal that a second officer confirms (docs/guide/cases.md "Four eyes").
export function CaseControls() {
  const q = useQuery(CaseService.method.getCaseSettings, {});
  const [fourEyes, setFourEyes] = useState<boolean | null>(null);
  const save = useMutation(CaseService.method.updateCaseSettings, { onSuccess: () => void q.refetch() });
  if (q.isPending) return <Loading />;
  if (q.isError) return <ErrorText error={q.error} />;
  const fe = fourEyes ?? q.data.fourEyesResolution;
  return (
    <form aria-label="Case controls" onSubmit={(e) => { e.preventDefault(); save.mutate({ fourEyesResolution: fe }); }}>
      <h2>Case controls</h2>
      <label><input type="checkbox" checked={fe} onChange={(e) => setFourEyes(e.target.checked)} /> Four eyes for every case resolution</label>
      <div><button type="submit" disabled={save.isPending}>Save case controls</button>{save.isSuccess && <span role="status">Saved.</span>}</div>
      <ErrorText error={save.error} />
    </form>
  );
}
