import { Button, Code, Group, Paper, Text } from '@mantine/core';
import { useState } from 'react';

// CopySecret shows a secret the API returns only once, with a button that copies it, and says
// so: after leaving the page it cannot be shown again.
export function CopySecret({ what, value }: { what: string; value: string }) {
  const [copied, setCopied] = useState('');
  const copy = () => navigator.clipboard.writeText(value).then(() => setCopied('Copied.'), () => setCopied('Copy failed: select the text and copy it.'));
  return (
    <Paper withBorder p="sm" role="region" aria-label={`New ${what}`}>
      <Text size="sm" fw={600}>The {what} is shown only now. Store it safely.</Text>
      <Code block my="xs" data-testid="secret" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>{value}</Code>
      <Group gap="sm">
        <Button type="button" size="xs" variant="default" onClick={() => void copy()}>Copy {what}</Button>
        <Text size="sm" role="status">{copied}</Text>
      </Group>
    </Paper>
  );
}
