import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';

// Names, numbers and times as people read them (issue 50 point 4): one place for each, so every
// screen spells an amount, an instant and an enum value the same way.

// defaultZone is the zone of a tenant that has not set one: Nigeria's, which reports use for
// their day (a transaction at 23:34 UTC on 30 November is on 1 December in Lagos).
export const defaultZone = 'Africa/Lagos';

const symbols: Record<string, string> = { NGN: '₦', USD: '$', EUR: '€', GBP: '£' };

// money renders a decimal string ("10500000" or "1500.75") with its currency's symbol and
// thousands separators, never through a float: the integer part is grouped as text.
export function money(amount: string | undefined, currency = 'NGN'): string {
  if (amount === undefined || amount === '') return '—';
  const neg = amount.startsWith('-');
  const [int, frac = ''] = (neg ? amount.slice(1) : amount).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const cents = (frac + '00').slice(0, Math.max(2, frac.replace(/0+$/, '').length));
  const sym = symbols[currency.toUpperCase()];
  const body = `${grouped}.${cents}`;
  return `${neg ? '−' : ''}${sym ?? ''}${body}${sym ? '' : ' ' + currency.toUpperCase()}`;
}

// count renders an integer with separators.
export function count(n: number | bigint): string {
  return new Intl.NumberFormat('en-NG').format(n);
}

// plural spells "1 screening", "2 screenings"; irregular plurals are given.
export function plural(n: number | bigint, one: string, many = one + 's'): string {
  return `${count(n)} ${Number(n) === 1 ? one : many}`;
}

function toDate(t?: Timestamp | Date): Date | undefined {
  if (!t) return undefined;
  return t instanceof Date ? t : timestampDate(t);
}

// abbreviations names the zones Intl only spells as an offset ("GMT+1" for Africa/Lagos in
// en-GB): the abbreviation people read there. Zones with daylight saving that Intl already
// names (Europe/London: GMT, BST) are not listed.
const abbreviations: Record<string, string> = {
  'Africa/Lagos': 'WAT', 'Africa/Douala': 'WAT', 'Africa/Kinshasa': 'WAT', 'Africa/Luanda': 'WAT', 'Africa/Niamey': 'WAT',
  'Africa/Porto-Novo': 'WAT', 'Africa/Accra': 'GMT', 'Africa/Abidjan': 'GMT', 'Africa/Dakar': 'GMT', 'Africa/Nairobi': 'EAT',
  'Africa/Kampala': 'EAT', 'Africa/Dar_es_Salaam': 'EAT', 'Africa/Addis_Ababa': 'EAT', 'Africa/Johannesburg': 'SAST',
  'Africa/Kigali': 'CAT', 'Africa/Lusaka': 'CAT', 'Africa/Harare': 'CAT', 'Asia/Dubai': 'GST', 'Asia/Kolkata': 'IST',
  'Asia/Singapore': 'SGT', 'Asia/Hong_Kong': 'HKT', 'Asia/Tokyo': 'JST', 'UTC': 'UTC', 'Etc/UTC': 'UTC',
};

// zoneName is what follows a time: the zone's abbreviation when Intl gives one or the table above
// knows it, otherwise the zone's own name ("America/Bogota") rather than a bare offset.
function zoneName(intl: string, zone: string): string {
  if (abbreviations[zone]) return abbreviations[zone];
  return /^(GMT|UTC)[+-]/.test(intl) ? zone : intl;
}

// dateTime renders an instant in the tenant's zone with the zone named: "1 Dec 2026, 00:34 WAT".
export function dateTime(t?: Timestamp | Date, zone = defaultZone): string {
  const d = toDate(t);
  if (!d) return '—';
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone, day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit',
    hour12: false, timeZoneName: 'short',
  }).formatToParts(d);
  return parts.map((p) => (p.type === 'timeZoneName' ? zoneName(p.value, zone) : p.value)).join('');
}

// day renders the calendar day of an instant in the tenant's zone: "1 Dec 2026".
export function day(t?: Timestamp | Date, zone = defaultZone): string {
  const d = toDate(t);
  if (!d) return '—';
  return new Intl.DateTimeFormat('en-GB', { timeZone: zone, day: 'numeric', month: 'short', year: 'numeric' }).format(d);
}

// calendarDate spells a date that has no time of day and no zone (a date of birth, a list's
// publication day) as people write it, to the precision it is stated: "1970-01-31" → "31 Jan
// 1970", "1970-01" → "Jan 1970", "1970" stays. Anything else (a list's free text: "circa 1965")
// is shown as given rather than guessed at.
export function calendarDate(s?: string): string {
  if (!s) return '';
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(s.trim());
  if (!m) return s;
  if (!m[2]) return m[1];
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, m[3] ? Number(m[3]) : 1));
  if (Number.isNaN(d.getTime())) return s;
  const opts: Intl.DateTimeFormatOptions = m[3] ? { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' } : { timeZone: 'UTC', month: 'short', year: 'numeric' };
  return new Intl.DateTimeFormat('en-GB', opts).format(d);
}

// acronyms stay in capitals inside a label ("VERIFIED_BVN_OR_NIN" → "Verified BVN or NIN").
const acronyms = new Set(['BVN', 'NIN', 'CAC', 'KYC', 'KYB', 'PEP', 'FX', 'NGN', 'STR', 'CTR', 'SAR', 'FTR', 'ID', 'POS', 'ATM',
  'USSD', 'API', 'URL', 'CEL', 'AML', 'FATF', 'UBO', 'TIN', 'RC', 'OFAC', 'UN', 'EU', 'UK', 'MFA', 'BYOL', 'ISO', 'NUBAN', 'CBN',
  'NFIU', 'IP', 'SMS', 'OTP', 'TOTP', 'HTTP', 'JSON', 'CSV', 'SDN', 'HMT', 'ECOWAS', 'SWIFT', 'BIC', 'LEI', 'UETR']);

// enumLabel spells a wire enum value ("POST_NO_DEBIT", "wallet_reserve") one way: "Post no debit";
// acronyms keep their capitals ("TIER_1" → "Tier 1", "VERIFIED_BVN_OR_NIN" → "Verified BVN or NIN").
export function enumLabel(v?: string): string {
  if (!v) return '—';
  const words = v.split(/[_\s]+/).filter(Boolean).map((w) => (acronyms.has(w.toUpperCase()) ? w.toUpperCase() : w.toLowerCase()));
  if (words.length === 0) return '—';
  const s = words.join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// enumWords spells a wire enum value inside a sentence: enumLabel's words in lower case, acronyms
// kept ("IN_PROGRESS" → "in progress", "KYC_REVIEW" → "KYC review"), the way the server writes
// them in its own sentences (internal/prose Enum: "Status changed from open to in progress").
// enumLabel(v).toLowerCase() lost the acronyms ("kyc review").
export function enumWords(v?: string): string {
  if (!v) return '—';
  return v.split(/[_\s]+/).filter(Boolean).map((w) => (acronyms.has(w.toUpperCase()) ? w.toUpperCase() : w.toLowerCase())).join(' ') || '—';
}

// auditAction spells an audit event's action code for people: its dotted parts as enum words,
// the first letter capitalised ("kyc.status_changed" → "KYC status changed", "api_key.revoked" →
// "API key revoked"). The code itself stays what the filter and the CSV export use.
export function auditAction(code?: string): string {
  if (!code) return '—';
  const s = code.split('.').filter(Boolean).map((p) => enumWords(p)).join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// yesNo spells a flag for people.
export function yesNo(b: boolean | undefined): string {
  return b ? 'Yes' : 'No';
}

// ruleLabel names a rule for people: "AML-008 KYC Tier Limit" for a numbered rule (its number
// once, even when the name repeats it), and only the name for a built-in rule whose id is a key
// ("KYC_STATUS" → "KYC Not Verified").
export function ruleLabel(id: string, name: string): string {
  if (!name) return id;
  if (name.startsWith(id) || /^[A-Z][A-Z_]*$/.test(id)) return name;
  return `${id} ${name}`;
}

// prose makes a sentence the API wrote for logs readable on a screen: enum values inside it are
// spelled like enumLabel ("KYC status DOCUMENT_UPLOADED at TIER_1" → "KYC status Document uploaded
// at Tier 1") and "(s)" plurals take the number before them ("1 open case(s)" → "1 open case",
// "2 screening alert(s)" → "2 screening alerts"; without a number, the plural).
export function prose(text?: string): string {
  if (!text) return '';
  return text
    .replace(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g, (v) => enumLabel(v))
    .replace(/(\d[\d,]*)(\s(?:[A-Za-z-]+\s){0,2}?)([A-Za-z-]+)\(s\)/g, (_m, n: string, mid: string, w: string) => `${n}${mid}${Number(n.replace(/,/g, '')) === 1 ? w : w + 's'}`)
    .replace(/([A-Za-z-]+)\(s\)/g, '$1s');
}

// sentence starts a server-written phrase with a capital ("created" → "Created").
export function sentence(text?: string): string {
  if (!text) return '';
  return text.charAt(0).toUpperCase() + text.slice(1);
}
