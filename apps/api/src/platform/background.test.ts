import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { createBackgroundQueue } from './background.js';

describe('background queue', () => {
  it('starts a task only after the current turn, and drain waits for it and for tasks it queued', async () => {
    const queue = createBackgroundQueue();
    const done: string[] = [];
    queue.run('first', async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      done.push('first');
      queue.run('second', async () => {
        done.push('second');
      });
    });
    await Promise.resolve();
    expect(done).toEqual([]);
    await queue.drain();
    expect(done).toEqual(['first', 'second']);
  });

  it('logs a failed task and keeps going', async () => {
    const error = vi.fn();
    const queue = createBackgroundQueue({ error } as unknown as FastifyBaseLogger);
    const boom = new Error('boom');
    queue.run('failing', async () => {
      throw boom;
    });
    await queue.drain();
    expect(error).toHaveBeenCalledWith({ err: boom, task: 'failing' }, 'background task failed');
  });
});
