/** The webhook deliveries' row types and the password mask (the service reads and writes them, the presenter shows them); not presentation, so a service imports it (docs/decisions/module-graph.md). */

export const PASSWORD_MASK = '********';

export interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: string;
  target_url: string;
  status: string;
  attempt_count: number;
  next_attempt_at: Date | null;
  last_status: number | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface AttemptRow {
  delivery_id: string;
  attempt_no: number;
  started_at: Date;
  http_status: number | null;
  latency_ms: number;
  error: string | null;
  response_excerpt: string | null;
}
