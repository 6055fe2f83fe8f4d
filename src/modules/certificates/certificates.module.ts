import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Certificate } from './certificate.entity';
import { CertificatesController } from './certificates.controller';
import { CertificatesService } from './certificates.service';
import { CertificateDocumentsService } from './certificate-documents.service';
import { CertificateTemplatesService } from './certificate-templates.service';
import { CertificateTemplateV1Controller } from './certificate-template.v1.controller';
import { CredentialsService } from './credentials.service';
import { VerificationController } from './verification.controller';
import { CertificateTemplateEntity } from './certificate-template.entity';
import { CredentialIssuer } from './credential-issuer.entity';
import { IssuerKey } from './issuer-key.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Certificate, CertificateTemplateEntity, CredentialIssuer, IssuerKey])],
  controllers: [CertificatesController, VerificationController, CertificateTemplateV1Controller],
  providers: [CertificatesService, CredentialsService, CertificateTemplatesService, CertificateDocumentsService],
  exports: [CertificatesService],
})
export class CertificatesModule {}
