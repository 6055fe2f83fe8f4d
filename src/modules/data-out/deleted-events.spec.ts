import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DELETED_EVENTS, NOT_LIST_DELETIONS, triggerArguments } from './deleted-events';
import { LOG_EVENT_TYPES } from './events.v2.controller';

/**
 * Every DELETE route of the application (the route table the route-table test keeps equal to the
 * running app) removes something a list shows, and so names its `*.deleted` event in DELETED_EVENTS,
 * or is a named non-deletion (NOT_LIST_DELETIONS). A new DELETE route fails here until one of the two
 * says what a syncing client sees of it.
 */
const SNAPSHOT = join(__dirname, '..', '..', '..', 'test', 'platform', 'route-table.snapshot.txt');
const deleteRoutes = () =>
  readFileSync(SNAPSHOT, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('DELETE '))
    .map((l) => l.split(/\s+/).slice(0, 2).join(' '));

describe('*.deleted sync events (DELETED_EVENTS)', () => {
  it('names every DELETE route of the route table, either with its event or as a non-deletion', () => {
    const routes = deleteRoutes();
    expect(routes.length).toBeGreaterThan(50); // the scan reads the table it means to read
    const covered = new Map<string, string>();
    for (const e of DELETED_EVENTS) for (const r of e.routes) covered.set(r, e.type);
    const missing = routes.filter((r) => !covered.has(r) && !(r in NOT_LIST_DELETIONS));
    expect(missing).toEqual([]);
    // and nothing stale: each route named exists, and none is both an event's and a non-deletion
    expect([...covered.keys(), ...Object.keys(NOT_LIST_DELETIONS)].filter((r) => !routes.includes(r))).toEqual([]);
    expect([...covered.keys()].filter((r) => r in NOT_LIST_DELETIONS)).toEqual([]);
  });

  it('has one entry per event type, named <member>.deleted, each filterable in the event log', () => {
    const types = DELETED_EVENTS.map((e) => e.type);
    expect(new Set(types).size).toBe(types.length);
    for (const e of DELETED_EVENTS) {
      expect(e.type).toBe(`${e.member}.deleted`);
      expect(LOG_EVENT_TYPES).toContain(e.type);
      expect(e.ids.length).toBeGreaterThan(0);
    }
  });

  it('writes the trigger arguments as (member, column, public id prefix) triples', () => {
    const group = DELETED_EVENTS.find((e) => e.table === 'group_memberships')!;
    expect(triggerArguments(group)).toEqual(['group_membership.deleted', 'group_membership', 'group_id', 'group_id', 'grp', 'user_id', 'user_id', 'stu']);
    const domain = DELETED_EVENTS.find((e) => e.table === 'domains')!;
    expect(triggerArguments(domain)).toEqual(['domain.deleted', 'domain', 'id', 'id', 'dom', 'name', 'name', '']);
  });
});
