import type { ReactNode } from 'react';
import { ErrorText, Loading } from './parts';

// DocumentFigure shows an uploaded document inline through its short-lived download link (the
// screen's query of GetDocumentDownload or GetKybDocumentDownload): images and PDFs in the page,
// and a download link for any type.
export function DocumentFigure({ caption, fileName, mimeType, link }: {
  caption: ReactNode;
  fileName: string;
  mimeType: string;
  link: { isPending: boolean; isError: boolean; error: unknown; data?: { url: string } };
}) {
  const url = link.data?.url;
  return (
    <figure className="doc">
      <figcaption>{caption}</figcaption>
      {link.isPending ? <Loading /> : link.isError ? <ErrorText error={link.error} /> : mimeType.startsWith('image/')
        ? <img src={url} alt={`${fileName} preview`} style={{ maxWidth: 'min(480px, 100%)' }} />
        : mimeType === 'application/pdf'
          ? <iframe title={`${fileName} preview`} src={url} width={480} height={600} style={{ maxWidth: '100%' }} />
          : null}
      {url && <p><a href={url} target="_blank" rel="noreferrer">Download {fileName}</a></p>}
    </figure>
  );
}
