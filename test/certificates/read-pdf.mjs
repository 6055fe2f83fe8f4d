// Reads a PDF as a reader would, in its own Node process for test/certificates/*.e2e-spec.ts
// (pdf-parse loads pdf.js as ES modules, which jest's CommonJS runtime cannot): the page text from
// pdf-parse, and the QR code decoded by jsQR from the page rendered at twice its size. Reads the PDF
// (base64) on stdin; prints {text, qr} on stdout.
import { PDFParse } from 'pdf-parse';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';

const input = await new Promise((resolve) => {
  let s = '';
  process.stdin.on('data', (d) => (s += d));
  process.stdin.on('end', () => resolve(s));
});
const parser = new PDFParse({ data: new Uint8Array(Buffer.from(input, 'base64')) });
try {
  const { text } = await parser.getText();
  const shot = await parser.getScreenshot({ scale: 2 });
  const png = PNG.sync.read(Buffer.from(shot.pages[0].data));
  const qr = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null;
  process.stdout.write(JSON.stringify({ text, qr }));
} finally {
  await parser.destroy();
}
