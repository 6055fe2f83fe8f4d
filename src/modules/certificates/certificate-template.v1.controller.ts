import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { CertificateTemplateSchema, type CertificateTemplateV1, type RotatedKey, RotatedKeySchema } from './certificate-schemas';
import { openApi } from '../../core/openapi/declared-shape';
import { PutAndPatch } from '../../core/http/put-and-patch';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { Extension } from '../../core/http/extension';
import { V1 } from '../../core/http/interfaces';
import { CertificateTemplatesService, presentTemplate } from './certificate-templates.service';
import { CredentialsService } from './credentials.service';
import { CertificateTemplateDto } from './dto/certificate-template.dto';

/**
 * The organization's certificate template (the PDF's logo, colours, title and signature line) and
 * its credential issuer's key rotation: extensions (CONVENTIONS §22), like the other administrative
 * writes of section 15.
 */
@V1()
@Extension('the certificate template and the credential issuer (CONVENTIONS §22).')
@Controller('v1/organization')
export class CertificateTemplateV1Controller {
  constructor(
    private readonly templates: CertificateTemplatesService,
    private readonly credentials: CredentialsService,
  ) {}

  @Get('certificate-template')
  @Scopes('certificates:read')
  @ApiOkResponse({ description: 'The template', schema: openApi(CertificateTemplateSchema) })
  async read(@Auth() p: Principal): Promise<CertificateTemplateV1> {
    return presentTemplate(await this.templates.get(p.organizationId));
  }

  @PutAndPatch('certificate-template')
  @Scopes('certificates:write')
  @ApiOkResponse({ description: 'The template as changed', schema: openApi(CertificateTemplateSchema) })
  async update(@Auth() p: Principal, @Body() dto: CertificateTemplateDto): Promise<CertificateTemplateV1> {
    return presentTemplate(await this.templates.update(p.organizationId, dto));
  }

  /** Retires the signing key (credentials it signed still verify) and makes a new one. */
  @Post('credential-issuer/rotate-key')
  @HttpCode(200)
  @Scopes('organization:write')
  @ApiOkResponse({ description: 'The new key and the retired one', schema: openApi(RotatedKeySchema) })
  async rotate(@Auth() p: Principal): Promise<RotatedKey> {
    return this.credentials.rotateKey(p.organizationId);
  }
}
