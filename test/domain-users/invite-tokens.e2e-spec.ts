import { HashInviteTokens1763700014300 } from '../../migrations/1763700014300-hash-invite-tokens';
import { sha256 } from '../../src/core/crypto/crypto';
import { decodeId } from '../../src/core/ids/ids';
import { DomainUserInvitesService } from '../../src/modules/domain-users/domain-user-invites.service';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';

/** Invite tokens are secrets: only their SHA-256 is stored (as refresh tokens, client secrets and API keys are). */
describe('domain-user invite tokens are stored hashed', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  let invites: DomainUserInvitesService;
  const users = () => `/v1/domains/${org.domain_name}/users`;

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    token = await t.tokenFor(org);
    invites = t.app.get(DomainUserInvitesService);
  });
  afterAll(() => t.close());

  async function member(): Promise<string> {
    const res = await t.post(users(), { user: { email: `inv-${Math.random().toString(36).slice(2)}@example.test` } }, { token });
    expect(res.status).toBe(201);
    return res.body.user.id;
  }

  it('the stored value is not the token; the token is shown once; using the invite works once; the stored value is no credential', async () => {
    const uid = await member();
    const res = await t.post(`${users()}/${uid}/invites`, {}, { token });
    expect(res.status).toBe(201);
    const secret: string = res.body.token;
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(res.body.invite_url).toBe(`https://${org.domain_name}/auth/invite/${secret}`);

    const rows = await t.ds.query(`SELECT * FROM domain_user_invites WHERE id = $1`, [decodeId('domainUserInvite', res.body.id)]);
    expect(rows).toHaveLength(1);
    expect(Object.keys(rows[0])).not.toContain('token');
    expect(rows[0].token_hash).toEqual(sha256(secret));
    // the plaintext appears in no column of the row
    expect(JSON.stringify(rows[0])).not.toContain(secret);
    expect(Object.values(rows[0]).some((v) => Buffer.isBuffer(v) && v.toString('utf8').includes(secret))).toBe(false);
    // and no stored value equals it
    expect((await t.ds.query(`SELECT 1 FROM domain_user_invites WHERE token_hash = $1`, [Buffer.from(secret)])).length).toBe(0);

    // reads do not show it any more
    const read = await t.get(`${users()}/${uid}/invites/${res.body.id}`, { token });
    expect(read.body).toMatchObject({ id: res.body.id, token: '', invite_url: '', used_at: null });
    const list = await t.get(`${users()}/${uid}/invites`, { token });
    expect(JSON.stringify(list.body)).not.toContain(secret);

    // the stored value (or anything but the token) is not a credential
    expect(await invites.acceptInvite(rows[0].token_hash.toString('hex'))).toBeNull();
    expect(await invites.acceptInvite(rows[0].token_hash.toString('base64url'))).toBeNull();
    expect(await invites.acceptInvite(secret + 'x')).toBeNull();
    expect(await invites.acceptInvite(12)).toBeNull();

    const used = await invites.acceptInvite(secret);
    expect(used).toEqual({ organizationId: decodeId('organization', org.organization_id), domainId: expect.any(String), userId: decodeId('student', uid) });
    expect(await invites.acceptInvite(secret)).toBeNull(); // single use
    expect((await t.get(`${users()}/${uid}/invites/${res.body.id}`, { token })).body.used_at).toEqual(expect.stringMatching(/^\d{4}-/));
  });

  it("an anonymized user's outstanding invite can no longer be used", async () => {
    const uid = await member();
    const secret = (await t.post(`${users()}/${uid}/invites`, {}, { token })).body.token;
    expect((await t.post(`/v1/users/${uid}/anonymize`, undefined, { token })).status).toBe(200);
    expect(await invites.acceptInvite(secret)).toBeNull();
  });

  it('migration 1763700014300 hashes the plaintext tokens of existing rows', async () => {
    const uid = await member();
    const created = await t.post(`${users()}/${uid}/invites`, {}, { token });
    const inviteUuid = decodeId('domainUserInvite', created.body.id);
    const qr = (await t.ownerDataSource()).createQueryRunner(); // a migration: the owner's connection
    try {
      // back to the schema before it, with a row holding a plaintext token as it did then
      await new HashInviteTokens1763700014300().down(qr);
      await t.ds.query(`UPDATE domain_user_invites SET token = 'legacy-plaintext-invite-token-0123456789' WHERE id = $1`, [inviteUuid]);
      await new HashInviteTokens1763700014300().up(qr);
    } finally {
      await qr.release();
    }
    const [row] = await t.ds.query(`SELECT * FROM domain_user_invites WHERE id = $1`, [inviteUuid]);
    expect(Object.keys(row)).not.toContain('token');
    expect(row.token_hash).toEqual(sha256('legacy-plaintext-invite-token-0123456789'));
    expect(await invites.acceptInvite('legacy-plaintext-invite-token-0123456789')).toEqual(expect.objectContaining({ userId: decodeId('student', uid) }));
  });
});
