import { useState } from 'react';
import { useQuery, useMutation } from '@connectrpc/connect-query';
import { CaseService } from '../../gen/complyd/v1/case_pb';
import { Button, Checkbox, Group, Text, Title } from '@mantine/core';
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
      <Title order={2} size="h3" mt="lg" mb="xs">Case controls</Title>
      <Group gap="md" align="center" wrap="wrap">
        <Checkbox label="Four eyes for every case resolution" checked={fe} onChange={(e) => setFourEyes(e.currentTarget.checked)} />
        <Button type="submit" loading={save.isPending}>Save case controls</Button>
      </Group>
      {save.isSuccess && <Text role="status" size="sm" mt={4}>Saved.</Text>}
      <ErrorText error={save.error} />
    </form>
  );
}
