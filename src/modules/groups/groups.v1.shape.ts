/** The /v1 groups' row types and stored rules (the services read them, the presenter shows them); not presentation, so a service imports it (docs/decisions/module-graph.md). */

/** The stored rule (`groups.sign_up_field_rule` jsonb), as written by the /v1 service. */
export interface SignUpFieldRule {
  enforce: boolean;
  require_match_all: boolean;
  options: { id: string }[];
}

export interface GroupUserRow {
  user_id: string;
  email: string;
  first_name: string;
  last_name: string;
  created_at: Date;
}

export interface GroupPoolRow {
  access_code_pool_id: string;
  name: string;
  created_at: Date;
}

export interface UserGroupRow {
  group_id: string;
  name: string;
  created_at: Date;
}
