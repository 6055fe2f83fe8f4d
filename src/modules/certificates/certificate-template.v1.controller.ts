import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { CERTIFICATE_TEMPLATE_SCHEMA, ROTATED_KEY_SCHEMA } from './certificate-schemas';
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
  @ApiOkResponse({ description: 'The template', schema: CERTIFICATE_TEMPLATE_SCHEMA })
  async read(@Auth() p: Principal) {
    return presentTemplate(await this.templates.get(p.organizationId));
  }

  @PutAndPatch('certificate-template')
  @Scopes('certificates:write')
  @ApiOkResponse({ description: 'The template as changed', schema: CERTIFICATE_TEMPLATE_SCHEMA })
  async update(@Auth() p: Principal, @Body() dto: CertificateTemplateDto) {
    return presentTemplate(await this.templates.update(p.organizationId, dto));
  }

  /** Retires the signing key (credentials it signed still verify) and makes a new one. */
  @Post('credential-issuer/rotate-key')
  @HttpCode(200)
  @Scopes('organization:write')
  @ApiOkResponse({ description: 'The new key and the retired one', schema: ROTATED_KEY_SCHEMA })
  async rotate(@Auth() p: Principal) {
    return this.credentials.rotateKey(p.organizationId);
  }
}
