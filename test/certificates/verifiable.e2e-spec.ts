import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import addFormats from 'ajv-formats';
import { PNG } from 'pngjs';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { freePort, startTestApp, TestApp } from '../support/app';
import { journey } from '../support/learner-journey';
import { insertCourse, insertStudent, issueCertificate } from '../support/fixtures';
import { decodeId } from '../../src/core/ids/ids';

/**
 * Certificates that prove themselves (CONVENTIONS §22), checked with third-party software: the PDF
 * read back by pdf-parse (its text, and the QR code decoded by jsQR from the rendered page), the
 * Open Badges 3.0 credential verified by an independent verifier (@digitalbazaar/vc, run as its own
 * process: test/certificates/independent-verifier.mjs) before and after the completion is removed,
 * and validated against 1EdTech's JSON schema (test/reference/openbadges, README there).
 */
const REFERENCE = join(__dirname, '..', 'reference', 'openbadges');

/** Runs one of this folder's .mjs scripts in its own Node process: `input` on stdin, its JSON answer from stdout. */
function script<T>(name: string, input: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(__dirname, name)], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`${name} exited ${code}: ${out}`))));
    child.stdin.end(input);
  });
}

const verifyIndependently = (credential: unknown, base: string) =>
  script<{ accepted: boolean; verified: boolean; statusVerified: boolean | null; revoked: boolean | null; errors: string[] }>('independent-verifier.mjs', JSON.stringify({ credential, base }));

const readPdf = (pdf: Buffer) => script<{ text: string; qr: string | null }>('read-pdf.mjs', pdf.toString('base64'));

describe('verifiable certificates: PDF, public verification, Open Badges 3.0', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  let token: string;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await startTestApp({ PUBLIC_URL: base, VERIFY_RATE_LIMIT: 1000 } as any, { port });
    org = await t.newOrg('Acme Learning');
    other = await t.newOrg();
    token = await t.tokenFor(org);
  });
  afterAll(() => t?.close());

  const bytes = async (path: string, opts: { token?: string } = {}) => {
    const res = await fetch(base + path, { headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {} });
    return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
  };

  /** A learner who completes a one-lesson course through the API: the certificate the platform issues. */
  async function completedCertificate(o: CreatedOrg, name = { first_name: 'Zoë', last_name: 'Łukasiewicz' }) {
    const j = journey(t, o);
    const course = await j.course([{ title: 'Only lesson' }], { title: 'Ladder Safety 101' });
    const du = await t.post(`/v1/domains/${o.domain_name}/users`, { user: { email: `l-${Date.now()}-${Math.random()}@example.test`, ...name } }, { basic: o.api_key });
    expect(du.status).toBe(201);
    const userId = du.body.user.id;
    await j.enroll(userId, course.publishedCourseId);
    const done = await t.patch(
      `/v1/users/${userId}/published-courses/${course.publishedCourseId}/lessons/${course.lessonIds[0]}`,
      { lesson_progress: { completed_at: new Date().toISOString() } },
      { basic: o.api_key },
    );
    expect(done.status).toBe(200);
    const tk = await t.tokenFor(o);
    const list = await t.get(`/v2/certificates/?filter[student.id]=${userId}`, { token: tk });
    expect(list.body.data).toHaveLength(1);
    return { cert: list.body.data[0], userId, course, token: tk };
  }

  it('a completed course: the PDF names the learner and the course and its QR code opens the verification page; active, then revoked when the completion is removed; an independent verifier accepts the credential, then sees it revoked', async () => {
    const { cert, userId, course } = await completedCertificate(org);
    expect(cert.attributes.pdf_url).toBe(`${base}/v2/certificates/${cert.id}/pdf`);

    // the PDF, read back by a PDF library
    const pdf = await bytes(`/v2/certificates/${cert.id}/pdf`, { token });
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    expect(pdf.body.subarray(0, 5).toString()).toBe('%PDF-');
    const read = await readPdf(pdf.body);
    expect(read.text).toContain('Zoë Łukasiewicz');
    expect(read.text).toContain('Ladder Safety 101');
    expect(read.text).toContain(cert.attributes.code);
    const verifyUrl = `${base}/verify/${cert.attributes.code}`;
    expect(read.qr).toBe(verifyUrl);

    // the public verification page (no credentials), HTML and JSON: active
    const html = await fetch(read.qr!);
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await html.text();
    expect(page).toContain('Active');
    expect(page).toContain('Zoë Łukasiewicz');
    const json = await (await fetch(verifyUrl, { headers: { accept: 'application/json' } })).json();
    expect(json).toEqual({
      code: cert.attributes.code,
      status: 'active',
      learner_name: 'Zoë Łukasiewicz',
      course: 'Ladder Safety 101',
      issued_at: cert.attributes.issued_at,
      expires_at: null,
      revoked_at: null,
      issuer: 'Acme Learning',
    });
    expect(JSON.stringify(json)).not.toMatch(/@example\.test/); // no email, nothing but the name, course and dates

    // the credential: valid under 1EdTech's schema, accepted by an independent verifier
    const res = await t.get(`/v2/certificates/${cert.id}/credential`, { token });
    expect(res.status).toBe(200);
    const credential = res.body;
    expect(credential.type).toEqual(['VerifiableCredential', 'OpenBadgeCredential']);
    expect(credential.issuer.id).toBe(`did:web:127.0.0.1%3A${new URL(base).port}:orgs:${org.organization_id}`);
    expect(credential.proof).toHaveLength(1);
    expect(credential.proof[0]).toMatchObject({ type: 'DataIntegrityProof', cryptosuite: 'eddsa-rdfc-2022', proofPurpose: 'assertionMethod' });
    const ajv = new Ajv2019({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(join(REFERENCE, 'ob_v3p0_achievementcredential_schema.json'), 'utf8')));
    expect(validate(credential) ? [] : validate.errors).toEqual([]);
    // asked again: the same credential, byte for byte
    expect((await t.get(`/v2/certificates/${cert.id}/credential`, { token })).text).toBe(res.text);
    const before = await verifyIndependently(credential, base);
    expect(before).toMatchObject({ accepted: true, verified: true, statusVerified: true, revoked: false });

    // a tampered credential fails
    const tampered = await verifyIndependently({ ...credential, credentialSubject: { ...credential.credentialSubject, name: 'Mallory' } }, base);
    expect(tampered).toMatchObject({ accepted: false, verified: false });

    // the completion is removed: revoked everywhere
    const removed = await t.patch(`/v1/users/${userId}/published-courses/${course.publishedCourseId}`, { course_progress: { completed_at: null } }, { basic: org.api_key });
    expect(removed.status).toBe(200);
    const after: any = await (await fetch(verifyUrl, { headers: { accept: 'application/json' } })).json();
    expect(after.status).toBe('revoked');
    expect(after.revoked_at).not.toBeNull();
    expect(await (await fetch(verifyUrl)).text()).toContain('Revoked');
    const seen = await verifyIndependently(credential, base);
    expect(seen).toMatchObject({ accepted: false, verified: true, statusVerified: true, revoked: true });
  });

  it('the organization template (logo, colours, title, signature line) is set through /v1 and used by the PDF; bad values are 400 and change nothing', async () => {
    const key = { basic: org.api_key };
    const initial = await t.get('/v1/organization/certificate-template', key);
    expect(initial.status).toBe(200);
    expect(initial.body).toMatchObject({ title: 'Certificate of Completion', logo: null, updated_at: null });
    const png = new PNG({ width: 8, height: 8 });
    png.data.fill(200);
    const logo = `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
    const put = await t.request('PUT', '/v1/organization/certificate-template', {
      ...key,
      body: { title: 'Certificate of Achievement', primary_color: '#AA0000', signature_name: 'Grace Hopper', signature_title: 'Head of Training', logo },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ title: 'Certificate of Achievement', primary_color: '#aa0000', accent_color: '#c8a951', signature_name: 'Grace Hopper', logo });
    for (const body of [{ primary_color: 'red' }, { logo: 'data:image/png;base64,AAAA' }, { logo: 'http://example.test/logo.png' }, { title: '' }, { signature_name: 5 }]) {
      const bad = await t.patch('/v1/organization/certificate-template', body, key);
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body)).toEqual([Object.keys(body)[0]]);
    }
    expect((await t.get('/v1/organization/certificate-template', key)).body).toEqual(put.body);
    const partial = await t.patch('/v1/organization/certificate-template', { signature_title: null }, key);
    expect(partial.body).toMatchObject({ title: 'Certificate of Achievement', signature_name: 'Grace Hopper', signature_title: null });

    const { cert } = await completedCertificate(org, { first_name: 'Ada', last_name: 'Lovelace' });
    const text = (await readPdf((await bytes(`/v2/certificates/${cert.id}/pdf`, { token })).body)).text;
    expect(text).toContain('Certificate of Achievement');
    expect(text).toContain('Grace Hopper');
    // the public PDF by code is the same document
    const pub = await bytes(`/verify/${cert.attributes.code}/pdf`);
    expect(pub.status).toBe(200);
    expect((await readPdf(pub.body)).text).toContain('Ada Lovelace');

    // the other organization's template is its own
    expect((await t.get('/v1/organization/certificate-template', { basic: other.api_key })).body.title).toBe('Certificate of Completion');
    // scopes: reading needs certificates:read, writing certificates:write
    const readOnly = await t.tokenFor(org, ['certificates:read']);
    expect((await t.get('/v1/organization/certificate-template', { token: readOnly })).status).toBe(200);
    expect((await t.patch('/v1/organization/certificate-template', { title: 'X' }, { token: readOnly })).status).toBe(403);
  });

  it('isolation and bad ids: another organization, an unknown id or code answer 404; no credentials answer 401', async () => {
    const { cert } = await completedCertificate(org, { first_name: 'Iso', last_name: 'Lation' });
    const otherToken = await t.tokenFor(other);
    for (const suffix of ['pdf', 'credential']) {
      expect((await t.get(`/v2/certificates/${cert.id}/${suffix}`, { token: otherToken })).status).toBe(404);
      expect((await t.get(`/v2/certificates/nope/${suffix}`, { token })).status).toBe(404);
      expect((await t.get(`/v2/certificates/${cert.id}/${suffix}`)).status).toBe(401);
    }
    for (const code of ['ZZZZZZZZZZZZZZZZ', '%00', 'A'.repeat(65), "x'--"]) {
      const res = await fetch(`${base}/verify/${code}`, { headers: { accept: 'application/json' } });
      expect(res.status).toBe(404);
      expect((await fetch(`${base}/verify/${code}`)).status).toBe(404);
    }
    expect((await fetch(`${base}/orgs/not-a-uuid/did.json`)).status).toBe(404);
    expect((await fetch(`${base}/orgs/${other.organization_id}/did.json`)).status).toBe(404); // no issuer yet
    expect((await fetch(`${base}/orgs/${org.organization_id}/status-lists/99`)).status).toBe(404);
  });

  it('key rotation: the DID document lists the new key and keeps the old one, so earlier credentials still verify; new ones use the new key', async () => {
    const { cert } = await completedCertificate(org, { first_name: 'Rot', last_name: 'Ation' });
    const old = (await t.get(`/v2/certificates/${cert.id}/credential`, { token })).body;
    const rotated = await t.post('/v1/organization/credential-issuer/rotate-key', undefined, { basic: org.api_key });
    expect(rotated.status).toBe(200);
    expect(rotated.body.retired_key_id).toBe(old.proof[0].verificationMethod);
    const did: any = await (await fetch(`${base}/orgs/${org.organization_id}/did.json`)).json();
    expect(did.assertionMethod).toEqual(expect.arrayContaining([old.proof[0].verificationMethod, rotated.body.key_id]));
    const fresh = (await t.get(`/v2/certificates/${cert.id}/credential`, { token })).body;
    expect(fresh.proof[0].verificationMethod).toBe(rotated.body.key_id);
    expect(fresh.credentialStatus).toEqual(old.credentialStatus); // the same status-list entry
    expect((await verifyIndependently(old, base)).accepted).toBe(true);
    expect((await verifyIndependently(fresh, base)).accepted).toBe(true);
    // the private keys are sealed at rest
    const keys = await t.ownerQuery(`SELECT private_key_sealed FROM issuer_keys WHERE organization_id = $1`, [decodeId('organization', org.organization_id)]);
    expect(keys.length).toBeGreaterThanOrEqual(2);
    for (const k of keys) expect(k.private_key_sealed).not.toMatch(/PRIVATE KEY/);
  });

  it('status-list indexes are unique under concurrent first requests for the same and different certificates', async () => {
    const o = await t.newOrg();
    const tk = await t.tokenFor(o);
    const certs = [await completedCertificate(o, { first_name: 'A', last_name: 'One' }), await completedCertificate(o, { first_name: 'B', last_name: 'Two' })];
    const answers = await Promise.all([...certs, ...certs, ...certs].map((c) => t.get(`/v2/certificates/${c.cert.id}/credential`, { token: tk })));
    for (const a of answers) expect(a.status).toBe(200);
    const byCert = new Map<string, Set<string>>();
    answers.forEach((a, i) => {
      const id = [...certs, ...certs, ...certs][i].cert.id;
      if (!byCert.has(id)) byCert.set(id, new Set());
      byCert.get(id)!.add(a.body.credentialStatus.statusListIndex);
    });
    expect([...byCert.values()].map((s) => s.size)).toEqual([1, 1]);
    const indexes = [...byCert.values()].map((s) => [...s][0]);
    expect(new Set(indexes).size).toBe(2);
    expect(indexes.sort()).toEqual(['0', '1']);
  });

  it('an expired certificate: the page says expired, the credential carries validUntil, and its status bit is set', async () => {
    const o = await t.newOrg('Expiring Org');
    const tk = await t.tokenFor(o);
    const s = await insertStudent(t, o);
    const c = await insertCourse(t, o);
    const past = new Date(Date.now() - 86_400_000);
    const cert = await issueCertificate(t, o, s.uuid, c.uuid, { issued_at: new Date(Date.now() - 10 * 86_400_000), expires_at: past });
    const code = (await t.get(`/v2/certificates/${cert.id}`, { token: tk })).body.data.attributes.code;
    const v: any = await (await fetch(`${base}/verify/${code}`, { headers: { accept: 'application/json' } })).json();
    expect(v).toMatchObject({ status: 'expired', expires_at: past.toISOString(), revoked_at: null });
    const credential = (await t.get(`/v2/certificates/${cert.id}/credential`, { token: tk })).body;
    expect(credential.validUntil).toBe(past.toISOString());
    const seen = await verifyIndependently(credential, base);
    expect(seen).toMatchObject({ accepted: false, statusVerified: true, revoked: true });
  });

  it('the verification page is rate-limited per address', async () => {
    const t2 = await startTestApp({ VERIFY_RATE_LIMIT: 3, VERIFY_RATE_WINDOW_SECONDS: 60 } as any);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await t2.get('/verify/ZZZZZZZZZZZZZZZZ', { headers: { accept: 'application/json' } })).status);
      expect(statuses).toEqual([404, 404, 404, 429, 429]);
    } finally {
      await t2.close();
    }
  });
});
