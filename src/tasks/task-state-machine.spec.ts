import { BadRequestException } from '@nestjs/common';
import { planTransition } from './task-state-machine';

describe('planTransition', () => {
  it.each([
    ['active', 'paused', 'remove-job'],
    ['paused', 'active', 'create-job'],
    ['active', 'completed', 'remove-job'],
    ['completed', 'active', 'create-job'],
    ['active', 'active', 'none'],
    ['paused', 'paused', 'none'],
  ] as const)('should allow %s -> %s with scheduler action %s', (from, to, action) => {
    expect(planTransition(from, to)).toBe(action);
  });

  it.each([
    ['paused', 'completed'],
    ['completed', 'paused'],
  ] as const)('should reject %s -> %s with the documented message', (from, to) => {
    expect(() => planTransition(from, to)).toThrow(
      new BadRequestException(`Invalid state transition: ${from} -> ${to}`),
    );
  });
});
