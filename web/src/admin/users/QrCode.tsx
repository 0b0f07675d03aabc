import { useEffect, useState } from 'react';
import QRCode from 'qrcode';

// QrCode renders an otpauth:// URI as a QR image for an authenticator app to scan. It is drawn in
// the browser: the secret never leaves the page for an image service.
export function QrCode({ value, label }: { value: string; label: string }) {
  const [src, setSrc] = useState('');
  const [err, setErr] = useState('');
  useEffect(() => {
    QRCode.toDataURL(value, { margin: 1, width: 200 }).then(setSrc, (e: Error) => setErr(e.message));
  }, [value]);
  if (err) return <p role="alert" className="error">Could not draw the QR code: {err}</p>;
  return src ? <img src={src} alt={label} width={200} height={200} /> : null;
}
