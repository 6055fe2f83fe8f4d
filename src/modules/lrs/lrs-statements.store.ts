/**
 * The `lrs_statements` table (the LRS owns it; docs/decisions/data-access.md): its row type,
 * checked against the migrated schema by row-types.spec.ts, and the column list built from it.
 */

/** A statement as stored, with the columns its queries filter on (docs/decisions/lrs.md). @table lrs_statements */
export interface LrsStatementRow {
  /** a sequence for a stable order within one `stored` instant (bigint: text) */
  seq: string;
  organization_id: string;
  id: string;
  /** the statement exactly as GET answers it (validated on the way in; walked member by member) */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  statement: Record<string, any>;
  stored: Date;
  verb_id: string;
  activity_id: string | null;
  agents: string[];
  related_agents: string[];
  related_activities: string[];
  registration: string | null;
  voiding_target: string | null;
  voided: boolean;
  attachment_hashes: string[];
}

const LRS_STATEMENTS_ROW: { [K in keyof LrsStatementRow]-?: true } = {
  seq: true,
  organization_id: true,
  id: true,
  statement: true,
  stored: true,
  verb_id: true,
  activity_id: true,
  agents: true,
  related_agents: true,
  related_activities: true,
  registration: true,
  voiding_target: true,
  voided: true,
  attachment_hashes: true,
};

/** Every column of `lrs_statements` (unaliased): LrsStatementRow's members, and only those. */
export const LRS_STATEMENTS_COLUMNS = Object.keys(LRS_STATEMENTS_ROW).join(', ');

/**
 * A statement's agent, in `stored` order (the ordered index of an `agent` query; written with the
 * statement, in the same INSERT). @table lrs_statement_agents
 */
export interface LrsStatementAgentRow {
  organization_id: string;
  /** an agent key (agentKey): every agent of the statement's `related_agents` */
  agent: string;
  /** the actor or the object agent (`agents`), as opposed to one only related */
  direct: boolean;
  stored: Date;
  /** the statement's seq (bigint: text) */
  seq: string;
}
