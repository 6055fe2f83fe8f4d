import { Controller, Get, Header, Param, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { DidDocumentSchema, type DidDocument, PDF_BYTES, StatusListCredentialSchema, type StatusListCredential, VerificationSchema } from './certificate-schemas';
import { openApi } from '../../core/openapi/declared-shape';
import { Throttle } from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../core/auth/decorators';
import { fromConfig, RateLimitGuard } from '../../core/auth/rate-limit';
import { NeutralApi } from '../../core/http/interfaces';
import { CertificateDocumentsService } from './certificate-documents.service';
import { CredentialsService } from './credentials.service';

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
const wantsJson = (req: FastifyRequest) => /\bapplication\/(?:[\w.+-]*\+)?json\b/i.test(String(req.headers.accept ?? ''));
const day = (iso: string | null) => (iso ? iso.slice(0, 10) : null);

const STATE_TEXT = { active: 'Active', expired: 'Expired', revoked: 'Revoked' } as const;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#222}h1{font-size:1.4rem}dl{display:grid;grid-template-columns:max-content 1fr;gap:.4rem 1rem}dt{color:#666}.s{display:inline-block;padding:.15rem .6rem;border-radius:1rem;font-weight:600}.active{background:#dff5e1;color:#17632a}.expired{background:#fff2cc;color:#7a5b00}.revoked{background:#fde2e1;color:#8a1c16}</style></head><body>${body}</body></html>`;
}

/**
 * Public proof of a certificate (CONVENTIONS §22): the verification page (HTML, or JSON with
 * `Accept: application/json`) and its PDF by code, rate-limited per address; the issuer's DID
 * document and status lists, which a verifier fetches while it checks a credential.
 */
@ApiTags('certificates')
@NeutralApi()
@Controller()
export class VerificationController {
  constructor(
    private readonly documents: CertificateDocumentsService,
    private readonly credentials: CredentialsService,
  ) {}

  @Public()
  @Get('verify/:code')
  @UseGuards(RateLimitGuard)
  @Throttle({ default: { limit: fromConfig('VERIFY_RATE_LIMIT'), ttl: fromConfig('VERIFY_RATE_WINDOW_SECONDS', 1000) } })
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'Verify a certificate by its code (public): active, expired or revoked, with the learner, the course and the dates' })
  @ApiProduces('application/json', 'text/html')
  @ApiOkResponse({ description: 'The verification (JSON with Accept: application/json; else a small HTML page saying the same)', schema: openApi(VerificationSchema) })
  async verify(@Param('code') code: string, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const json = wantsJson(req);
    let facts;
    try {
      facts = await this.documents.byCode(code);
    } catch (e) {
      if (json) throw e;
      reply.status(404).header('Content-Type', 'text/html; charset=utf-8');
      return page('Certificate not found', `<h1>No certificate has this code</h1><p>Check the code and try again.</p>`);
    }
    const v = this.documents.verification(facts);
    if (json) return v;
    reply.header('Content-Type', 'text/html; charset=utf-8');
    return page(
      `Certificate ${v.code}`,
      `<h1>Certificate ${esc(v.code)}</h1><p><span class="s ${v.status}">${STATE_TEXT[v.status]}</span></p>
<dl><dt>Learner</dt><dd>${esc(v.learner_name || '—')}</dd><dt>Course</dt><dd>${esc(v.course)}</dd><dt>Issued by</dt><dd>${esc(v.issuer)}</dd>
<dt>Issued</dt><dd>${day(v.issued_at)}</dd><dt>Valid until</dt><dd>${day(v.expires_at) ?? 'No expiry'}</dd>${v.revoked_at ? `<dt>Revoked</dt><dd>${day(v.revoked_at)}</dd>` : ''}</dl>
<p><a href="${esc(encodeURIComponent(v.code))}/pdf">Download the certificate (PDF)</a></p>`,
    );
  }

  @Public()
  @Get('verify/:code/pdf')
  @UseGuards(RateLimitGuard)
  @Throttle({ default: { limit: fromConfig('VERIFY_RATE_LIMIT'), ttl: fromConfig('VERIFY_RATE_WINDOW_SECONDS', 1000) } })
  @ApiOperation({ summary: 'The certificate PDF by its code (public, what the learner downloads and shares)' })
  @ApiProduces('application/pdf')
  @ApiOkResponse({ description: 'The PDF', schema: PDF_BYTES })
  async pdf(@Param('code') code: string, @Res({ passthrough: true }) reply: FastifyReply) {
    const facts = await this.documents.byCode(code);
    const pdf = await this.documents.pdf(facts);
    reply
      .header('Content-Type', 'application/pdf')
      .header('Content-Disposition', `inline; filename="certificate-${facts.code.replace(/[^A-Za-z0-9-]/g, '')}.pdf"`)
      .header('Cache-Control', 'no-store');
    return pdf;
  }

  @Public()
  @Get('orgs/:organization_id/did.json')
  @ApiOperation({ summary: "The organization's DID document (did:web), with its credential-signing keys" })
  @ApiOkResponse({ description: 'The DID document', schema: openApi(DidDocumentSchema) })
  async did(@Param('organization_id') organizationId: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<DidDocument> {
    reply.header('Content-Type', 'application/did+json').header('Cache-Control', 'public, max-age=300');
    return this.credentials.didDocument(organizationId);
  }

  @Public()
  @Get('orgs/:organization_id/status-lists/:list')
  @UseGuards(RateLimitGuard)
  @Throttle({ default: { limit: fromConfig('VERIFY_RATE_LIMIT'), ttl: fromConfig('VERIFY_RATE_WINDOW_SECONDS', 1000) } })
  @ApiOperation({ summary: "A Bitstring Status List credential of the organization's certificates (revocation)" })
  @ApiOkResponse({ description: 'The status list credential, signed now', schema: openApi(StatusListCredentialSchema) })
  async statusList(@Param('organization_id') organizationId: string, @Param('list') list: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<StatusListCredential> {
    reply.header('Content-Type', 'application/vc+ld+json').header('Cache-Control', 'no-cache');
    return this.credentials.statusListCredential(organizationId, list);
  }
}
