// who names the user behind a stored id as the server resolved it (the *_by_name fields, one
// tenant-scoped lookup per answer): the name; "you" for the signed-in officer when meId is
// given; "Unknown user" when the id is no user of the tenant (never the id itself); "the
// system" when there is no id.
export function who(id: string | undefined | null, name: string | undefined, meId?: string): string {
  if (!id) return 'the system';
  if (meId && id === meId) return name ? `you (${name})` : 'you';
  return name || 'Unknown user';
}
