import { useState } from 'react';

// CopySecret shows a secret the API returns only once, with a button that copies it, and says
// so: after leaving the page it cannot be shown again.
export function CopySecret({ what, value }: { what: string; value: string }) {
  const [copied, setCopied] = useState('');
  const copy = () => navigator.clipboard.writeText(value).then(() => setCopied('Copied.'), () => setCopied('Copy failed: select the text and copy it.'));
  return (
    <div className="notes" role="region" aria-label={`New ${what}`}>
      <p>The {what} is shown only now. Store it safely.</p>
      <code data-testid="secret">{value}</code>{' '}
      <button type="button" onClick={() => void copy()}>Copy {what}</button>
      <span role="status">{copied}</span>
    </div>
  );
}
