import { BadRequestException } from '@nestjs/common';
import type { TaskState } from './task-state';

/** What the scheduler must do when a task moves between two states. */
export type SchedulerAction = 'remove-job' | 'create-job' | 'none';

/**
 * The state changes a user may ask for (docs/api.md, "Tasks"). Anything else is
 * `Invalid state transition: <from> -> <to>` (400). Completion by a met condition and pausing by
 * deactivation are not user updates and are applied by their own code paths.
 */
const TRANSITIONS: Record<TaskState, Partial<Record<TaskState, SchedulerAction>>> = {
  active: { paused: 'remove-job', completed: 'remove-job' },
  paused: { active: 'create-job' },
  completed: { active: 'create-job' },
};

/** Returns the scheduler action of a transition, or throws 400 for a transition not in the table. */
export function planTransition(from: TaskState, to: TaskState): SchedulerAction {
  if (from === to) return 'none';
  const action = TRANSITIONS[from][to];
  if (!action) throw new BadRequestException(`Invalid state transition: ${from} -> ${to}`);
  return action;
}
