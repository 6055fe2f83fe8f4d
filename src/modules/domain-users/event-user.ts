import { encodeId } from '../../core/ids/ids';

/**
 * The user of a domain membership's event body (CONVENTIONS §6: id, email, first_name, last_name):
 * the services build event bodies with it, so it is not presentation (docs/decisions/module-graph.md);
 * the presenter re-exports it, and its API reads add `full_name`.
 */
export function presentUser(r: { user_id: string; email: string; first_name: string; last_name: string }) {
  return { id: encodeId('student', r.user_id), email: r.email, first_name: r.first_name, last_name: r.last_name };
}
