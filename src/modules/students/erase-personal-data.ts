import type { EntityManager } from 'typeorm';
import { replaceEventPayloads } from '../../core/events/rewrite';
import { clearDiagnosticsMentioning } from '../webhooks/erasure';
import { IdempotencyService } from '../../core/idempotency/idempotency.service';
import { scoped } from '../../core/database/scoped';

/**
 * Erasure of a user's personal data outside the `users` row (CONVENTIONS §10, last rule), run in
 * the anonymizing transaction. Used by StudentsService.anonymize (both /v1 and /v2), after the
 * steps of the owners of the other tables (PersonErasureSteps: the first three below).
 *
 * - signup-field values: deleted;
 * - domain memberships: `marketing_optin` (a personal consent) cleared; the user members a /v1
 *   domain user shows come from the `users` row, already erased;
 * - lesson progress: its free text (`custom_data`, `validation_data`) cleared (progress/erasure.ts);
 * - invites not yet used: deleted (used ones hold no personal data and stay as history);
 * - stored events (`outbox_events`, delivered or not: the webhook sample operations read the most
 *   recent stored event of a type, so delivered ones are erased too): every object that is the
 *   user (its `id` is the user's public id, or its `email` is the user's email) loses its personal
 *   members; in an event about the user, `signup_fields` becomes `{}` and any member named like a
 *   personal member whose value is the user's email or name is emptied; the email is replaced
 *   wherever it appears inside a string;
 * - webhook attempts and deliveries of those events: a response excerpt or error text that
 *   mentions the email or a name is cleared (a receiver may echo the body);
 * - finished Idempotency-Key records whose stored answer shows the email or a name: deleted.
 */
export interface PersonToErase {
  organizationId: string;
  userId: string;
  /** the user's public id as events name it */
  publicId: string;
  /** the values before anonymization; absent when the user was anonymized earlier (then only id-based erasure is possible) */
  email?: string;
  firstName?: string;
  lastName?: string;
  /** what the email becomes */
  placeholderEmail: string;
  /** APP_SECRET: sealed (encrypted) Idempotency-Key answers are searched after decryption */
  appSecret: string;
}

/** Member names that hold personal data of a person object inside an event. */
const PERSONAL_KEYS = new Set(['email', 'first_name', 'last_name', 'full_name', 'name', 'username', 'external_id', 'phone', 'phone_number']);

function normalize(s: unknown): string {
  return typeof s === 'string' ? s.trim().toLowerCase() : '';
}

/** The personal strings of a person, lowercased, non-empty (names of one character are too common to match on). */
function needlesOf(p: PersonToErase): { email: string; names: string[] } {
  const first = normalize(p.firstName);
  const last = normalize(p.lastName);
  const names = [first, last, [first, last].filter(Boolean).join(' ')].filter((n) => n.length >= 2);
  return { email: normalize(p.email), names: [...new Set(names)] };
}

function replaceAllInsensitive(haystack: string, needle: string, replacement: string): string {
  if (!needle) return haystack;
  const lower = haystack.toLowerCase();
  let out = '';
  let from = 0;
  for (let at = lower.indexOf(needle, from); at >= 0; at = lower.indexOf(needle, from)) {
    out += haystack.slice(from, at) + replacement;
    from = at + needle.length;
  }
  return out + haystack.slice(from);
}

/** Erase the person from one event payload; returns the new payload and whether anything changed. */
export function erasePersonFromPayload(payload: Record<string, unknown>, p: PersonToErase): { payload: Record<string, unknown>; changed: boolean } {
  const { email, names } = needlesOf(p);
  let changed = false;
  const isPerson = (o: Record<string, unknown>) => (typeof o.id === 'string' && o.id === p.publicId) || (!!email && normalize(o.email) === email);
  const erasedValue = (key: string) => (key === 'email' ? p.placeholderEmail : '');

  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      if (email && v.toLowerCase().includes(email)) {
        changed = true;
        return replaceAllInsensitive(v, email, p.placeholderEmail);
      }
      return v;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const person = isPerson(o);
      const out: Record<string, unknown> = {};
      for (const [k, child] of Object.entries(o)) {
        if (PERSONAL_KEYS.has(k) && typeof child === 'string' && child !== '' && child !== p.placeholderEmail) {
          const c = normalize(child);
          if (person || c === email || names.includes(c)) {
            changed = true;
            out[k] = erasedValue(k);
            continue;
          }
        }
        out[k] = walk(child);
      }
      return out;
    }
    return v;
  };

  const next = walk(payload) as Record<string, unknown>;
  const user = next.user as Record<string, unknown> | undefined;
  const aboutUser = changed || (!!user && typeof user === 'object' && user.id === p.publicId);
  if (
    aboutUser &&
    next.signup_fields !== undefined &&
    !(next.signup_fields && typeof next.signup_fields === 'object' && !Array.isArray(next.signup_fields) && Object.keys(next.signup_fields).length === 0)
  ) {
    next.signup_fields = {};
    changed = true;
  }
  return { payload: next, changed };
}

/** Run every erasure step in the caller's transaction. */
export async function erasePersonalData(m: EntityManager, p: PersonToErase): Promise<void> {
  const org = p.organizationId;
  // the tables of other modules (domain memberships, lesson progress) are erased before, by their
  // owners' steps (PersonErasureSteps, person-erasure.ts), in this transaction

  const { email, names } = needlesOf(p);
  // Events about the user: named by id in a `user` object, or mentioning the email anywhere.
  const events: { id: string; payload: Record<string, unknown> }[] = await scoped(m, org).query(
    `SELECT id, payload FROM outbox_events
      WHERE organization_id = $org
        AND (payload @> jsonb_build_object('user', jsonb_build_object('id', $1::text))
             OR ($2 <> '' AND strpos(lower(payload::text), $2) > 0))
      FOR UPDATE`,
    [p.publicId, email],
  );
  const touched: string[] = [];
  const ids: string[] = [];
  const payloads: string[] = [];
  for (const e of events) {
    touched.push(e.id);
    const { payload, changed } = erasePersonFromPayload(e.payload, p);
    if (!changed) continue;
    ids.push(e.id);
    payloads.push(JSON.stringify(payload));
  }
  await replaceEventPayloads(m, org, ids, payloads);

  // Idempotency-Key records keep the exact answer of a write for replays (24 h): drop the finished
  // ones whose stored answer shows the person (a retry of such a write runs again instead of replaying)
  const exact = [p.email, p.firstName, p.lastName].filter((v): v is string => !!v && v.trim().length >= 2);
  await IdempotencyService.forgetAnswersShowing(m, p.appSecret, org, exact);

  const needles = [email, ...names].filter(Boolean);
  // a receiver may echo the body: clear diagnostics that mention the person
  await clearDiagnosticsMentioning(m, org, touched, needles);
}
