import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../../core/auth/decorators';
import { NeutralApi } from '../../core/http/interfaces';
import { ToolSpec } from './catalog';
import { McpService } from './mcp.service';

/** One tool as the tool list shows it. */
export interface ToolListEntry {
  name: string;
  title: string;
  interface: 'v1' | 'v2';
  method: string;
  path: string;
  /** the scopes of which the caller needs one (empty: any valid token, or public) */
  scopes: string[];
  public: boolean;
  paging: 'cursor' | 'page' | null;
  /** the input properties, required ones first */
  arguments: { name: string; required: boolean }[];
  description: string;
}

export function toolListEntry(t: ToolSpec): ToolListEntry {
  const required = new Set(t.inputSchema.required ?? []);
  const names = Object.keys(t.inputSchema.properties ?? {});
  return {
    name: t.name,
    title: t.title,
    interface: t.interface,
    method: t.method,
    path: t.path,
    scopes: t.rule.isPublic ? [] : [...(t.rule.scopes ?? [])],
    public: t.rule.isPublic,
    paging: t.paging ?? null,
    arguments: [...names.filter((n) => required.has(n)), ...names.filter((n) => !required.has(n))].map((name) => ({ name, required: required.has(name) })),
    description: t.description,
  };
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The MCP server's tools, listed under /docs (linked from the Swagger UI's description):
 * `GET /docs/mcp-tools` (HTML) and `GET /docs/mcp-tools.json`, generated from the same catalog
 * `tools/list` answers (McpService.tools(), built from the served OpenAPI document), so the list
 * cannot drift from the server. Every tool is listed with the scopes it needs; `tools/list` shows
 * a caller only those its token's scopes allow.
 */
@ApiExcludeController()
@NeutralApi()
@Controller('docs')
export class McpDocsController {
  constructor(private readonly mcp: McpService) {}

  @Public()
  @Get('mcp-tools.json')
  @Header('Cache-Control', 'no-cache')
  async json(): Promise<{ endpoint: string; count: number; tools: ToolListEntry[] }> {
    const tools = (await this.mcp.tools()).map(toolListEntry);
    return { endpoint: '/mcp', count: tools.length, tools };
  }

  @Public()
  @Get('mcp-tools')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-cache')
  async html(): Promise<string> {
    const tools = (await this.mcp.tools()).map(toolListEntry);
    const rows = tools
      .map((t) => {
        const args = t.arguments.map((a) => (a.required ? `<b>${escape(a.name)}</b>` : escape(a.name))).join(', ');
        const scopes = t.public ? 'public' : t.scopes.length ? t.scopes.map(escape).join(' | ') : 'any token';
        const summary = escape(t.description.split('\n')[0]);
        return `<tr id="${escape(t.name)}"><td><code>${escape(t.name)}</code></td><td><code>${t.method} ${escape(t.path)}</code></td><td>${scopes}</td><td>${summary}${t.paging ? ` <i>(paginated: ${t.paging === 'cursor' ? 'page.cursor' : 'page, page_size'})</i>` : ''}</td><td>${args}</td></tr>`;
      })
      .join('\n');
    const v2 = tools.filter((t) => t.interface === 'v2').length;
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>MCP tools - Course Platform API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:sans-serif;margin:2em;max-width:100%}table{border-collapse:collapse;width:100%;table-layout:fixed}td,th{border:1px solid #ccc;padding:4px 6px;vertical-align:top;text-align:left;font-size:13px;overflow-wrap:anywhere}th:nth-child(1){width:17%}th:nth-child(2){width:20%}th:nth-child(3){width:14%}th:nth-child(4){width:29%}th:nth-child(5){width:20%}code{white-space:normal;overflow-wrap:anywhere}</style></head>
<body>
<h1>MCP tools</h1>
<p>The MCP server at <code>/mcp</code> (Streamable HTTP, OAuth bearer token: client credentials or the authorization-code flow) has ${tools.length} tools: ${v2} for /v2 operations and ${tools.length - v2} (<code>v1_…</code>) for /v1 operations. Each runs its operation with the caller's token and answers the operation's JSON. <code>tools/list</code> shows a caller only the tools its scopes allow. Required arguments are in bold. Machine-readable: <a href="/docs/mcp-tools.json">/docs/mcp-tools.json</a>. The HTTP operations: <a href="/docs">/docs</a>.</p>
<table><thead><tr><th>Tool</th><th>Operation</th><th>Scopes (one of)</th><th>Summary</th><th>Arguments</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</body></html>
`;
  }
}
