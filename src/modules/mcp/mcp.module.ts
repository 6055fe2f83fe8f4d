import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { McpController } from './mcp.controller';
import { McpDocsController } from './mcp-docs.controller';
import { McpService } from './mcp.service';
import { ProtectedResourceController } from './protected-resource.controller';

/** The MCP server at /mcp and the protected resource metadata (docs/decisions/mcp.md). */
@Module({
  imports: [DiscoveryModule],
  controllers: [McpController, McpDocsController, ProtectedResourceController],
  providers: [McpService],
})
export class McpModule {}
