import { getQueueToken } from '@nestjs/bullmq';
import { Queue } from 'bullmq';
import { QUEUES } from '../../src/core/queue/queues';
import { startTestApp } from '../support/app';
import { trackSockets } from '../support/handles';

describe('API graceful shutdown', () => {
  it('app.close() closes Fastify, the database pool, Redis and the BullMQ connections', async () => {
    const sockets = trackSockets();
    const t = await startTestApp();
    try {
      // touch every connection: HTTP, PostgreSQL and Redis (health), the auth path, a queue producer
      expect((await t.get('/health')).status).toBe(200);
      const org = await t.newOrg();
      const token = await t.tokenFor(org);
      expect((await t.get('/v2/scopes/', { token })).status).toBe(200);
      const queue = t.app.get<Queue>(getQueueToken(QUEUES.maintenance));
      await queue.add('probe', { kind: 'expired-auth' });
      expect(await queue.count()).toBe(1);
      const open = sockets.open();
      expect(open).toContain('TCPSERVERWRAP');
      expect(open.filter((s) => s === 'TCPWRAP').length).toBeGreaterThanOrEqual(3);
    } finally {
      await t.close();
    }
    expect(await sockets.openAfterClose()).toEqual([]);
  });
});
