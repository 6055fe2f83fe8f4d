import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import { type OpenBadgeCredential, OpenBadgeCredentialSchema, PDF_BYTES } from './certificate-schemas';
import { openApi } from '../../core/openapi/declared-shape';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { decodeId } from '../../core/ids/ids';
import { JSON_TYPE, pageDocumentJson, parsePage } from '../../core/pagination/cursor-page';
import { dateTimeParam, filterParam, invalid, listParam, stringParam } from '../../core/http/query-params';
import { certificateRowChange, certificateRowJson, certificateRowPosition, presentCertificate } from './certificates.presenter';
import { CertificateStatus, CertificatesService } from './certificates.service';
import { CertificateDocumentsService } from './certificate-documents.service';
import { V2 } from '../../core/http/interfaces';
import { FastRead } from '../../core/routes/fast-path';

const STATUSES: CertificateStatus[] = ['active', 'expired', 'all'];

@ApiTags('certificates')
@ApiBearerAuth('JWTAuth')
@V2()
@Controller('v2/certificates')
export class CertificatesController {
  constructor(
    private readonly certificates: CertificatesService,
    private readonly config: AppConfig,
    private readonly documents: CertificateDocumentsService,
  ) {}

  @Get()
  @Scopes('certificates:read')
  @FastRead<CertificatesController>((c, { principal, query, req, reply }) => c.list(principal, query, req, reply))
  @ApiQuery({ name: 'filter[domains]', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'filter[status]', required: false, enum: ['active', 'expired', 'all'] })
  @ApiQuery({ name: 'filter[issued_gte]', required: false, schema: { type: 'string', format: 'date-time' } })
  @ApiQuery({ name: 'filter[issued_lte]', required: false, schema: { type: 'string', format: 'date-time' } })
  @ApiQuery({ name: 'filter[student.id]', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'filter[course.id]', required: false, schema: { type: 'string' } })
  @ApiQuery({
    name: 'filter[updated_since]',
    required: false,
    schema: { type: 'string', format: 'date-time' },
    description: 'changed at or after (RFC 3339 with an offset); the list is then ordered by last change',
  })
  @ApiQuery({ name: 'page[size]', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 } })
  @ApiQuery({ name: 'page[cursor]', required: false, schema: { type: 'string' } })
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const page = parsePage(query, this.config.APP_SECRET, 'certificates');
    const status = (stringParam(query, 'filter[status]', 16) ?? 'all') as CertificateStatus;
    if (!STATUSES.includes(status)) throw invalid('filter[status]', 'must be one of active, expired, all');
    const issuedGte = dateTimeParam(query, 'filter[issued_gte]', false);
    const issuedLte = dateTimeParam(query, 'filter[issued_lte]', false);
    const updatedSince = dateTimeParam(query, 'filter[updated_since]', true);
    const domains = listParam(query, 'filter[domains]');
    const student = filterParam(query, 'filter[student.id]', 1000);
    const course = filterParam(query, 'filter[course.id]', 1000);
    // unknown or undecodable ids match nothing: an empty page, never an error
    const studentUuid = student === undefined ? undefined : decodeId('student', student);
    const courseUuid = course === undefined ? undefined : decodeId('course', course);
    const rows =
      studentUuid === null || courseUuid === null
        ? []
        : await this.certificates.list(p, page, {
            status,
            issuedGte,
            issuedLte,
            domains: domains && domains.length ? domains : undefined,
            studentUuid,
            courseUuid,
            updatedSince,
          });
    const now = new Date();
    const base = requestBaseUrl(this.config, req);
    // the document as JSON text, written from the rows (the bytes of the presented document)
    const json = pageDocumentJson(rows, page, (c) => certificateRowJson(c, base, now), updatedSince ? certificateRowChange : certificateRowPosition, base, req.url, this.config.APP_SECRET);
    reply.header('Content-Type', JSON_TYPE);
    return json;
  }

  @Get(':id')
  @Scopes('certificates:read')
  @FastRead<CertificatesController>((c, { principal, params, req }) => c.get(principal, params.id, req))
  async get(@Auth() p: Principal, @Param('id') id: string, @Req() req: FastifyRequest) {
    return { data: presentCertificate(await this.certificates.get(p, id), requestBaseUrl(this.config, req)) };
  }

  /** The certificate as a PDF (CONVENTIONS §22): the learner, the course, the dates, the code and a QR code of its verification URL. */
  @Get(':id/pdf')
  @Scopes('certificates:read')
  @ApiProduces('application/pdf')
  @ApiOkResponse({ description: 'The PDF', schema: PDF_BYTES })
  @ApiOperation({
    summary: 'Download a certificate as a PDF',
    description: 'Extension (not in the published API): the PDF of the certificate in the organization template, with its verification URL and a QR code of it.',
  })
  async pdf(@Auth() p: Principal, @Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply) {
    const facts = await this.documents.byPublicId(p.organizationId, id);
    const pdf = await this.documents.pdf(facts);
    reply.header('Content-Type', 'application/pdf').header('Content-Disposition', `attachment; filename="certificate-${facts.code.replace(/[^A-Za-z0-9-]/g, '')}.pdf"`);
    return pdf;
  }

  /** The certificate as an Open Badges 3.0 OpenBadgeCredential (W3C VC 2.0), signed by the organization's did:web issuer. */
  @Get(':id/credential')
  @Scopes('certificates:read')
  @ApiOkResponse({ description: 'The OpenBadgeCredential', schema: openApi(OpenBadgeCredentialSchema) })
  @ApiOperation({
    summary: 'A certificate as an Open Badges 3.0 verifiable credential',
    description: 'Extension (not in the published API): an OpenBadgeCredential with an eddsa-rdfc-2022 Data Integrity proof and a Bitstring Status List entry.',
  })
  async credential(@Auth() p: Principal, @Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<OpenBadgeCredential> {
    const facts = await this.documents.byPublicId(p.organizationId, id);
    reply.header('Content-Type', 'application/vc+ld+json');
    return this.documents.credential(facts);
  }
}
