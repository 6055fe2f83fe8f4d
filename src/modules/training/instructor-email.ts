/** `instructor@example.com` or `Instructor Name <instructor@example.com>` (the published instructor_email forms). */
const ADDRESS = /^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;.][^\s@<>",;]*$/;
const DISPLAY = /^\s*"?([^"<>]*?)"?\s*<([^<>]+)>\s*$/;

/** The address (lowercased) and the display name (null in the plain form), or null when neither form. */
export function parseEmail(value: string): { email: string; name: string | null } | null {
  const plain = value.trim();
  if (ADDRESS.test(plain) && plain.length <= 254) return { email: plain.toLowerCase(), name: null };
  const m = DISPLAY.exec(value);
  if (!m) return null;
  const email = m[2].trim();
  const name = m[1].trim();
  if (!ADDRESS.test(email) || email.length > 254 || !name || name.length > 200) return null;
  return { email: email.toLowerCase(), name };
}
