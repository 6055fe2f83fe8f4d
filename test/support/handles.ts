import { createHook } from 'node:async_hooks';

const SOCKET_TYPES = new Set(['TCPWRAP', 'TCPSERVERWRAP', 'TLSWRAP', 'PIPEWRAP']);

export interface SocketTracker {
  /** sockets opened since tracking started that are not closed yet */
  open(): string[];
  /** waits (a bounded number of event-loop turns) for closing sockets to finish closing, then stops tracking */
  openAfterClose(): Promise<string[]>;
}

/**
 * Open-handle accounting for shutdown tests: records every socket (TCP client or server) opened
 * from now on and forgets it when it is closed. After an app or worker context is closed, nothing
 * it opened may remain: no HTTP server, database, Redis or BullMQ connection left behind.
 */
export function trackSockets(): SocketTracker {
  const live = new Map<number, string>();
  const hook = createHook({
    init(id, type) {
      if (SOCKET_TYPES.has(type)) live.set(id, type);
    },
    destroy(id) {
      live.delete(id);
    },
  }).enable();
  return {
    open: () => [...live.values()],
    async openAfterClose() {
      for (let i = 0; i < 250 && live.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
      hook.disable();
      return [...live.values()];
    },
  };
}
