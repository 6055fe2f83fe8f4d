import { readFileSync } from 'node:fs';
import type { PDFFont, PDFPage } from 'pdf-lib';
import QRCode from 'qrcode';

/**
 * The certificate as a PDF (CONVENTIONS §22): one A4 landscape page with the learner's name, the
 * course title, the issue and expiry dates, the code, the verification URL and a QR code of it, in
 * the organization's template (logo, two colours, a signature line). pdf-lib draws it; the text is
 * set in DejaVu Sans (embedded, subset), so any name in Latin, Greek or Cyrillic script prints as
 * written; qrcode makes the QR image.
 */
export interface CertificateTemplate {
  title: string;
  primaryColor: string;
  accentColor: string;
  signatureName: string | null;
  signatureTitle: string | null;
  logo: Buffer | null;
  logoType: 'image/png' | 'image/jpeg' | null;
}

export const DEFAULT_TEMPLATE: CertificateTemplate = {
  title: 'Certificate of Completion',
  primaryColor: '#1f3a5f',
  accentColor: '#c8a951',
  signatureName: null,
  signatureTitle: null,
  logo: null,
  logoType: null,
};

export interface CertificateContent {
  organizationName: string;
  learnerName: string;
  courseTitle: string;
  issuedAt: Date;
  expiresAt: Date | null;
  code: string;
  verificationUrl: string;
  state: 'active' | 'expired' | 'revoked';
}

/**
 * pdf-lib and fontkit, loaded on the first PDF rather than at every start of a process (they are
 * 2.6 MB of JavaScript that most processes and most test files never run: docs/decisions/tests.md).
 */
type Fontkit = typeof import('@pdf-lib/fontkit');
export async function pdfLib(): Promise<{ lib: typeof import('pdf-lib'); fontkit: Fontkit }> {
  const [lib, fontkit] = await Promise.all([import('pdf-lib'), import('@pdf-lib/fontkit')]);
  // a CommonJS module: its export is the namespace's `default` (esModuleInterop)
  return { lib, fontkit: (fontkit as Fontkit & { default?: Fontkit }).default ?? fontkit };
}

let fonts: { regular: Buffer; bold: Buffer } | undefined;
function fontBytes() {
  const dir = require.resolve('dejavu-fonts-ttf/package.json').replace(/package\.json$/, 'ttf/');
  return (fonts ??= { regular: readFileSync(dir + 'DejaVuSans.ttf'), bold: readFileSync(dir + 'DejaVuSans-Bold.ttf') });
}

type Rgb = (typeof import('pdf-lib'))['rgb'];
const hex = (rgb: Rgb, c: string) => rgb(parseInt(c.slice(1, 3), 16) / 255, parseInt(c.slice(3, 5), 16) / 255, parseInt(c.slice(5, 7), 16) / 255);
const day = (d: Date) => d.toISOString().slice(0, 10);

/** Text centred at `y`, shrunk (down to 40 % of `size`) to fit `maxWidth`. */
function centred(page: PDFPage, text: string, y: number, font: PDFFont, size: number, maxWidth: number, color: ReturnType<Rgb>) {
  let s = size;
  while (s > size * 0.4 && font.widthOfTextAtSize(text, s) > maxWidth) s -= 1;
  const w = font.widthOfTextAtSize(text, s);
  page.drawText(text, { x: (page.getWidth() - w) / 2, y, size: s, font, color });
}

export async function renderCertificatePdf(c: CertificateContent, t: CertificateTemplate = DEFAULT_TEMPLATE): Promise<Buffer> {
  const {
    lib: { PDFDocument, rgb },
    fontkit,
  } = await pdfLib();
  const ink = rgb(0.15, 0.15, 0.15);
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  pdf.setTitle(`${t.title}: ${c.courseTitle}`);
  pdf.setAuthor(c.organizationName);
  pdf.setSubject(`Certificate ${c.code}`);
  pdf.setCreator('course-platform-api');
  pdf.setCreationDate(c.issuedAt);
  pdf.setModificationDate(c.issuedAt);
  const { regular, bold } = fontBytes();
  const [font, boldFont] = await Promise.all([pdf.embedFont(regular, { subset: true }), pdf.embedFont(bold, { subset: true })]);
  const page = pdf.addPage([841.89, 595.28]);
  const W = page.getWidth();
  const H = page.getHeight();
  const primary = hex(rgb, t.primaryColor);
  const accent = hex(rgb, t.accentColor);

  page.drawRectangle({ x: 18, y: 18, width: W - 36, height: H - 36, borderColor: primary, borderWidth: 6 });
  page.drawRectangle({ x: 30, y: 30, width: W - 60, height: H - 60, borderColor: accent, borderWidth: 1.5 });

  if (t.logo && t.logoType) {
    const image = t.logoType === 'image/png' ? await pdf.embedPng(t.logo) : await pdf.embedJpg(t.logo);
    const scale = Math.min(160 / image.width, 60 / image.height, 1);
    page.drawImage(image, { x: 50, y: H - 50 - image.height * scale, width: image.width * scale, height: image.height * scale });
  }
  centred(page, c.organizationName, H - 80, font, 14, W - 420, primary);
  centred(page, t.title, H - 140, boldFont, 34, W - 140, primary);
  centred(page, 'This certifies that', H - 190, font, 14, W - 140, ink);
  centred(page, c.learnerName || 'the learner', H - 240, boldFont, 30, W - 140, ink);
  page.drawLine({ start: { x: W / 2 - 220, y: H - 252 }, end: { x: W / 2 + 220, y: H - 252 }, thickness: 1, color: accent });
  centred(page, 'has completed the course', H - 285, font, 14, W - 140, ink);
  centred(page, c.courseTitle, H - 325, boldFont, 22, W - 140, primary);
  const dates = `Issued ${day(c.issuedAt)}` + (c.expiresAt ? `  ·  Valid until ${day(c.expiresAt)}` : '');
  centred(page, dates, H - 365, font, 12, W - 140, ink);
  if (c.state !== 'active') centred(page, c.state === 'revoked' ? 'REVOKED' : 'EXPIRED', H - 390, boldFont, 14, W - 140, rgb(0.7, 0.1, 0.1));

  if (t.signatureName || t.signatureTitle) {
    page.drawLine({ start: { x: 80, y: 110 }, end: { x: 300, y: 110 }, thickness: 1, color: rgb(0.2, 0.2, 0.2) });
    if (t.signatureName) page.drawText(t.signatureName, { x: 80, y: 92, size: 12, font: boldFont, color: rgb(0.15, 0.15, 0.15) });
    if (t.signatureTitle) page.drawText(t.signatureTitle, { x: 80, y: 76, size: 10, font, color: rgb(0.3, 0.3, 0.3) });
  }

  const qr = await pdf.embedPng(await QRCode.toBuffer(c.verificationUrl, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 360 }));
  const size = 100;
  page.drawImage(qr, { x: W - 50 - size, y: 60, width: size, height: size });
  page.drawText(`Certificate code ${c.code}`, { x: W - 410, y: 90, size: 10, font, color: rgb(0.2, 0.2, 0.2) });
  page.drawText('Verify at', { x: W - 410, y: 76, size: 9, font, color: rgb(0.3, 0.3, 0.3) });
  let urlSize = 9;
  while (urlSize > 5 && font.widthOfTextAtSize(c.verificationUrl, urlSize) > 300) urlSize -= 0.5;
  page.drawText(c.verificationUrl, { x: W - 410, y: 64, size: urlSize, font, color: primary });

  return Buffer.from(await pdf.save());
}
